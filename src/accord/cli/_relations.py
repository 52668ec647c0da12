"""``accord relations``: agreement on relations and events (pairwise F1, alpha over candidate argument pairs)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from accord._shared.errors import AccordError, plural
from accord.cli._common import cli_errors, console, print_json, said, warnings_said

__all__ = ["register"]


def _f(x: Any) -> str:
    return "undefined" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def _interval(res: Any) -> str:
    """Alpha's bootstrap interval as the line shows it (nothing without --bootstrap)."""
    if not res.bootstrap:
        return ""
    if res.interval_undefined_reason:
        return f"; no interval ({said(res.interval_undefined_reason)})"
    return (f" [{res.alpha_ci_low:.4f}, {res.alpha_ci_high:.4f}] ({res.confidence:.0%}, {res.bootstrap} resamples of "
            "documents)")


def _kappa_interval(res: Any) -> str:
    """Kappa's bootstrap interval as the line shows it (nothing without --bootstrap)."""
    if not res.bootstrap:
        return ""
    if res.kappa_interval_undefined_reason:
        return f"; no interval ({said(res.kappa_interval_undefined_reason)})"
    return f" [{res.kappa_ci_low:.4f}, {res.kappa_ci_high:.4f}] ({res.confidence:.0%}, same resamples)"


def _render(res: Any, reports: list[Any], *, title: str, show: int) -> None:
    """Two tables of F1 (per coder pair, with and without the type; then per type), the lines of alpha and
    kappa, and the unmatched relations: each table fits 80 columns (precision and recall where there is room, else
    in --json)."""
    from accord.cli._render import print_table, table

    for rep in reports:
        console.print(said(rep.summary(cli=True)), highlight=False)
    how = f"{res.match} argument match" + ("" if res.argument_labels else ", argument labels ignored")
    counts = ("a", "b", "both")
    scores = ("precision", "recall", "F1", "F1 untyped")
    t = table(f"{title}: relation F1 per coder pair, {how}", ("coder a", "coder b", *counts, *scores),
              numbers=(*counts, *scores), optional=scores[:2],
              caption="a, b: the relations each coder drew; both: those drawn by both, same arguments and type; "
                      "precision both / b, recall both / a; F1 untyped: the type ignored")
    for p in res.pairs:
        t.add_row(p.coder_a, p.coder_b, str(p.typed.n_a), str(p.typed.n_b), str(p.typed.true_positives),
                  _f(p.typed.precision), _f(p.typed.recall), _f(p.typed.f1), _f(p.untyped.f1))
    print_table(t)
    by_type = [(s, p) for p in res.pairs for s in p.types]
    if by_type:
        t = table("F1 per relation type", ("type", "coder a", "coder b", *counts, "F1"), numbers=(*counts, "F1"))
        for s, p in sorted(by_type, key=lambda sp: sp[0].label):
            t.add_row(s.label, p.coder_a, p.coder_b, str(s.n_a), str(s.n_b), str(s.true_positives), _f(s.f1))
        print_table(t)
    console.print(f"{plural(res.n_relations, 'relation')} in {plural(res.n_documents, 'document')} seen by two "
                  f"coders or more; mean over coder pairs: F1 {_f(res.f1)} with the type, {_f(res.f1_untyped)} "
                  "without" + (f"; {plural(res.n_merged, 'repeated relation')} counted once" if res.n_merged else ""))
    values = "related or not" if res.ignore_type else "the type given"
    console.print(
        f"alpha (nominal, over {plural(res.n_candidates, 'candidate argument pair')}, {res.n_pairable} with values "
        f"of two coders or more; the value: {values}, none when both arguments are marked and not related, "
        f"{'none' if res.unmarked == 'none' else 'missing'} when an argument is not marked): "
        + (_f(res.alpha) + _interval(res) if not res.undefined_reason else
           f"undefined ({said(res.undefined_reason)})"))
    if len(res.coders) == 2:
        console.print("Cohen's kappa over the same candidates: "
                      + (_f(res.kappa) + _kappa_interval(res)
                         if res.kappa_result is not None and not math.isnan(res.kappa)
                         else f"undefined ({said(res.kappa_undefined_reason)})"))
    if res.unshared_pairs:
        console.print(f"{plural(len(res.unshared_pairs), 'coder pair has', 'coder pairs have')} no scores (no "
                      "document in common): " + ", ".join(f"{a}/{b}" for a, b in res.unshared_pairs))
    if res.unmatched and show:
        _render_unmatched(res.unmatched, show)


def _render_unmatched(unmatched: list[Any], show: int) -> None:
    """The first *show* unmatched relations: the relation, its arguments, and why it has no match."""
    from accord.cli._render import print_table, table

    d = table(f"Unmatched relations ({len(unmatched)}; first {min(show, len(unmatched))})",
              ("document", "coder", "relation: source -> target", "why", "other coder"))
    for u in unmatched[:show]:
        why = u.reason + (f" ({u.missing})" if u.missing else "") + (f": {u.other_type}" if u.other_type else "")
        d.add_row(u.document, u.coder, f"{u.relation + ' ' if u.relation else ''}{u.type}\n{u.source}\n-> {u.target}",
                  why, u.other_coder)
    print_table(d)


def relations(
    files: Annotated[list[Path], typer.Argument(help="The export(s): a brat folder, an INCEpTION project export, a "
                                                     "Label Studio JSON export, a Prodigy JSONL file (several are "
                                                     "read as one project).")],
    from_: Annotated[str | None, typer.Option("--from", help="The tool that wrote the export: brat, inception, "
                                                             "label-studio, prodigy (guessed when omitted).")] = None,
    field: Annotated[str | None, typer.Option(help="The span control or layer whose spans are the arguments, where "
                                                   "the export has several.")] = None,
    match: Annotated[str, typer.Option(help="How arguments are aligned: exact, overlap or gamma.")] = "exact",
    ignore_type: Annotated[bool, typer.Option("--ignore-type", help="Alpha and kappa on whether a pair is related, "
                                                                    "not on the type.")] = False,
    ignore_argument_labels: Annotated[bool, typer.Option(
        "--ignore-argument-labels", help="Align spans whatever their labels.")] = False,
    unmarked: Annotated[str, typer.Option(help="A coder who did not mark an argument: missing (default) or none "
                                               "(counts as relating nothing).")] = "missing",
    undirected: Annotated[list[str] | None, typer.Option(help="A relation type whose direction does not matter "
                                                              "(repeatable).")] = None,
    texts: Annotated[Path | None, typer.Option(help="brat: the folder of <document>.txt files, when they are not "
                                                    "beside the .ann files.")] = None,
    bootstrap: Annotated[int, typer.Option(help="Resamples of documents for alpha's (and kappa's) interval (0: "
                                               "none).")] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed of the bootstrap.")] = None,
    confidence: Annotated[float, typer.Option(help="Level of the interval.")] = 0.95,
    show: Annotated[int, typer.Option(help="Unmatched relations to list (0: none).")] = 20,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Agreement on relations and events: F1 per coder pair, alpha over the related pairs.

    F1 is given with and without the type; alpha compares, on each pair of arguments some coder related, the
    type each coder gave, none, or missing; --bootstrap gives its interval, resampling documents.

    Example: accord relations round1/ --from brat --match overlap
    """
    if show < 0:
        raise AccordError(f"--show must be >= 0; got {show}")
    from accord.relations._read import agreement_of_exports

    options = {"texts": texts} if texts is not None else {}
    res, reports = warnings_said(agreement_of_exports, files, tool=from_, field=field, match=match,
                                 argument_labels=not ignore_argument_labels, ignore_type=ignore_type,
                                 unmarked=unmarked, undirected=tuple(undirected or ()), bootstrap=bootstrap,
                                 confidence=confidence, rng=seed, **options)
    if json_out:
        print_json({"sources": [str(f) for f in files], "import_reports": [r.to_dict() for r in reports],
                    **res.to_dict()})
        return
    _render(res, reports, title="Relation agreement of " + ", ".join(f.name for f in files), show=show)


def register(app: typer.Typer) -> None:
    """Add ``relations`` to *app*."""
    app.command("relations")(cli_errors(relations))
