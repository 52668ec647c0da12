"""``accord pyramid``: show, score and compare pyramids and peer annotations (DUCView files).

Passonneau (2010), Formal and functional assessment of the pyramid method for
summary content evaluation; Passonneau (2006), MASI.
"""

from __future__ import annotations

import io
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from accord._shared.errors import for_cli, plural
from accord._shared.sanitize import csv_cell, terminal_safe
from accord.cli._common import RAW_CSV_HELP, cli_errors, console, print_json
from accord.cli._common import note as note_line
from accord.cli._render import print_table, table
from accord.pyramid import CONVENTIONS
from accord.pyramid._model import MODEL_RULES

__all__ = ["pyramid_app", "register"]

pyramid_app = typer.Typer(
    name="pyramid",
    help="Pyramids of summary content units: tiers, validation, peer scores, agreement.",
    no_args_is_help=True,
)


def _num(x: Any) -> str:
    return "undefined" if x is None or not math.isfinite(x) else f"{x:.4f}"


def _found_by(n: int | None, rule: str) -> str:
    what = "; ".join(for_cli(MODEL_RULES.get(r, r)) for r in rule.split(", "))
    return f"{n if n is not None else 'The'} models found by {what}"


StartRegex = Annotated[
    str | None, typer.Option("--start-regex", help="Regex marking each model's start (overrides the file's).")
]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


@pyramid_app.command("show")
@cli_errors
def show(
    file: Annotated[Path, typer.Argument(help="A DUCView .pyr (or .pan) file, or the JSON form.")],
    style: Annotated[str, typer.Option(help="Guideline style to check: partition or relaxed.")] = "partition",
    weight: Annotated[str, typer.Option(help="SCU weight: models (the paper) or contributors.")] = "models",
    start_regex: StartRegex = None,
    peer: Annotated[
        Path | None, typer.Option("--peer", help="A peer annotation (.pan) whose embedded pyramid's start regex "
                                  "finds the models when FILE has none.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Tiers, weights and the validation report of a pyramid."""
    from accord.pyramid._files import pyramid_overview

    view = pyramid_overview(file, style=style, weight=weight, start_regex=start_regex, peer=peer)
    pyr, report, tiers, weights = view.pyramid, view.validation, view.tiers, view.weights
    if as_json:
        print_json({"file": str(file), "n_models": pyr.n_models, "models_found_by": pyr.models_found_by,
                    "start_regex": pyr.start_regex, "n_scus": len(pyr.scus), "tiers": tiers, "weights": weights,
                    "validation": report})
        return
    console.print(f"[bold]{escape(str(file))}[/bold]: {plural(pyr.n_models, 'model')}, {plural(len(pyr.scus), 'SCU')}, "
                  f"Xₐ = {tiers.x_a:.4g} (weight = {escape(str(weight))})", markup=True)
    console.print(_found_by(pyr.n_models, pyr.models_found_by), highlight=False)
    t = table("Tiers", ("weight", "SCUs"), numbers=("weight", "SCUs"))
    for w, n in zip(tiers.weights, tiers.sizes, strict=True):
        t.add_row(str(w), str(n))
    print_table(t)
    s = table("SCUs", ("SCU", "weight", "contributors", "label"), numbers=("weight", "contributors"))
    for scu in sorted(pyr.scus, key=lambda x: (-weights[x.id], x.id)):
        s.add_row(str(scu.id), str(weights[scu.id]), str(len(scu.contributors)), scu.label)
    print_table(s)
    if report.defects:
        for d in report.defects:
            text = str(replace(d, message=for_cli(d.message)))  # its advice in the command line's words
            console.print(f"[{'red' if d.severity == 'error' and not d.repaired else 'yellow'}]{escape(text)}[/]",
                          markup=True, highlight=False)
    console.print("valid" if report.ok else f"{plural(len(report.errors), 'unrepaired error')}")


@pyramid_app.command("score")
@cli_errors
def score(
    pyramid: Annotated[Path, typer.Argument(help="The pyramid (.pyr or JSON).")],
    peers: Annotated[list[Path], typer.Argument(help="Peer annotations (.pan or JSON).")],
    convention: Annotated[
        str, typer.Option(help=f"Scoring convention: {', '.join(sorted(CONVENTIONS))}.")
    ] = "paper",
    csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    start_regex: StartRegex = None,
    against: Annotated[
        str, typer.Option("--pyramid", help="Score each peer against the pyramid given (PYRAMID), or against the "
                          "pyramid its .pan file embeds (embedded), as NIST's official DUC scores were. Peers whose "
                          "embedded pyramid differs from PYRAMID are named on stderr, with the SCUs that differ.")
    ] = "given",
    as_json: AsJson = False,
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help=RAW_CSV_HELP)] = False,
) -> None:
    """Raw, original and modified pyramid scores of each peer."""
    from accord.pyramid._files import score_files

    res = score_files(pyramid, peers, convention=convention, start_regex=start_regex, against=against)
    for note in res.notes:
        note_line(note)
    if as_json:
        print_json(res)
        return
    if csv:
        buf = io.StringIO()
        frame = res.to_frame()
        (frame if raw_csv else frame.map(csv_cell)).to_csv(buf, index=False)
        text = buf.getvalue()
        sys.stdout.write(terminal_safe(text) if sys.stdout.isatty() else text)  # data when piped, not on a screen
        return
    console.print(_found_by(res.n_models, res.models_found_by), highlight=False)
    title = f"Scores ({res.convention}" + (", each peer against its embedded pyramid)" if against == "embedded"
                                           else ")")
    numbers = ("raw", "PSEs", "original", "Xₐ used", "modified")
    t = table(title, ("peer", *numbers), numbers=numbers)
    for s in res.scores:
        t.add_row(s.peer, f"{s.raw:g}", str(s.n_pses), _num(s.original), f"{s.x_a_used:g}", _num(s.modified))
    print_table(t)


@pyramid_app.command("agree")
@cli_errors
def agree(
    a: Annotated[Path, typer.Argument(help="First pyramid.")],
    b: Annotated[Path, typer.Argument(help="Second pyramid of the same models.")],
    distance: Annotated[
        list[str] | None, typer.Option("--distance", help="Distance(s); default nominal, jaccard, masi-2006, "
                                       "masi-2010.")
    ] = None,
    start_regex: StartRegex = None,
    as_json: AsJson = False,
) -> None:
    """Alpha between two pyramids, words as units (seed 000 Table 2)."""
    from accord.pyramid._files import pyramid_agreement_files

    res = pyramid_agreement_files(a, b, distances=distance, start_regex=start_regex)
    if as_json:
        print_json(res)
        return
    t = table(f"Pyramid agreement ({plural(res.n_units, 'word')})", ("distance", "alpha"), numbers=("alpha",))
    for k, v in res.alphas.items():
        t.add_row(k, _num(v))
    print_table(t)
    if any(res.n_unaligned):
        ua, ub = res.n_unaligned[0], res.n_unaligned[1]
        console.print(f"words left out by the alignment: {ua} in A, {ub} in B")


@pyramid_app.command("agree-peers")
@cli_errors
def agree_peers(
    a: Annotated[Path, typer.Argument(help="First annotation of a peer (.pan or JSON).")],
    b: Annotated[Path, typer.Argument(help="Second annotation of the same peer.")],
    units: Annotated[str, typer.Option(help="SCUs as units: found (Figure 4) or all.")] = "found",
    start_regex: StartRegex = None,
    as_json: AsJson = False,
) -> None:
    """Alpha with Dice, Binary and Binary' between two peer annotations (seed 002 Figure 4)."""
    from accord.pyramid._files import peer_agreement_files

    res = peer_agreement_files(a, b, units=units, start_regex=start_regex)
    if as_json:
        print_json(res)
        return
    t = table(f"Peer annotation agreement ({plural(res.n_units, 'SCU')})", ("measure", "alpha"), numbers=("alpha",))
    t.add_row("Dice (PSE multisets)", _num(res.alpha_dice))
    t.add_row("Binary", _num(res.alpha_binary))
    t.add_row("Binary'", _num(res.alpha_binary_prime))
    print_table(t)


def register(app: typer.Typer) -> None:
    """Add the ``pyramid`` sub-app to *app*."""
    app.add_typer(pyramid_app, name="pyramid")
