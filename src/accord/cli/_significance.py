"""``accord significance``: significance tests of scores from two annotations.

A paradigmatic reliability study: Passonneau (2010), Formal and functional
assessment of the pyramid method, sections 4.2 and 5, Tables 5-10;
Passonneau (2006), section 3.1.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from accord._shared.errors import plural
from accord.cli._common import cli_errors, console, print_json, shown_in_output
from accord.cli._render import print_table
from accord.cli._render import table as make_table
from accord.significance import PearsonCorrelation, SignificanceStudy

__all__ = ["register", "significance"]


def _num(x: Any, digits: int = 4) -> str:
    if x is None:
        return "-"
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    if not math.isfinite(f):
        return "undefined"
    if f != 0 and abs(f) < 10 ** (1 - digits):
        return f"{f:.3g}"
    return f"{f:.{digits}f}"


def _labels(xs: Any) -> str:
    return ", ".join(str(x) for x in xs)


def _correlation_row(table: Any, c: PearsonCorrelation) -> None:
    table.add_row(
        str(c.label),
        _num(c.r),
        _num(c.pvalue),
        f"{_num(c.ci_low)}, {_num(c.ci_high)}",
        str(c.n),
        c.reason or "",
    )


def _print(result: SignificanceStudy, path: Path) -> None:
    ann = [str(a) for a in result.annotations]
    console.print(
        f"[bold]{escape(str(path))}[/]: {plural(len(result.systems), 'system')}, "
        f"{plural(result.n_docsets, 'document set')}, {plural(result.n_scores, 'score')}"
        + (escape(f", annotations {ann[0]!r} and {ann[1]!r}") if len(ann) == 2 else ", one annotation"),
        markup=True,
    )
    alpha = result.alpha
    if result.annotation_anova is not None:
        a = result.annotation_anova
        if math.isfinite(a.pvalue):
            verdict = ": " + ("means do not differ (accepted)" if a.pvalue >= alpha else "means differ")
        else:  # the statistics say undefined; the reason, once
            verdict = f" ({escape(str(a.reason))})" if a.reason else ""
        console.print(
            f"\n[bold]ANOVA, annotation as factor[/]: F({a.df_between}, {a.df_within}) = "
            f"{_num(a.statistic)}, p = {_num(a.pvalue)}{verdict}",
            markup=True,
        )
        console.print(
            f"mean difference {_num(result.mean_difference)}, "
            f"mean absolute difference {_num(result.mean_absolute_difference)}"
        )
    if result.peer_correlations:
        level = result.peer_correlations[0].confidence_level
        t = make_table(f"Pearson's r between the annotations ({level:.0%} Fisher interval)",
                       ("system", "r", "p", "interval", "n", "note"), numbers=("r", "p", "interval", "n"))
        for c in result.peer_correlations:
            _correlation_row(t, c)
        t.add_section()
        for c in (result.pooled_correlation, result.system_mean_correlation):
            if c is not None:
                _correlation_row(t, c)
        print_table(t)
    for an in result.analyses:
        name = "" if an.annotation is None else f" - annotation {an.annotation!r}"
        s = an.system_anova
        console.print(
            f"\n[bold]ANOVA, system as factor{escape(name)}[/]: F({s.df_between}, {s.df_within}) = "
            f"{_num(s.statistic)}, p = {_num(s.pvalue)}" + (escape(f" ({s.reason})") if s.reason else ""),
            markup=True,
        )
        if an.tukey is not None:
            tk = an.tukey
            t = make_table(f"Significantly distinct groups of systems, Tukey's HSD ({_num(tk.hsd)}, alpha {alpha})",
                           ("systems", "mean", "better than", "their mean"), numbers=("mean", "their mean"))
            for g in tk.groups:
                t.add_row(_labels(g.systems), _num(g.mean), _labels(g.better_than), _num(g.better_than_mean))
            if not tk.groups:
                t.add_row("no significant difference", "", "", "")
            print_table(t)
        if an.power is not None:
            p = an.power
            console.print(
                f"power: between-group variance {_num(p.between_var)}, within {_num(p.within_var)}; "
                f"n = {_num(p.n_required, 2)} document sets per system for power {p.target_power} at "
                f"{p.sig_level} (power with the {_num(p.n, 2)} observed: {_num(p.power_observed)})"
                + (f" ({p.reason})" if p.reason else "")
            )
    rc = result.ranking_comparison
    if rc is not None:
        console.print(
            f"\n[bold]Rankings[/]: {rc.n_differ} of {rc.n_pairs} pairwise comparisons differ "
            f"({rc.fraction_differ:.1%}); {plural(rc.n_order_differs, 'pair')} ordered differently; "
            f"Kendall's tau of the system means {_num(rc.kendall_tau)}",
            markup=True,
        )
        if rc.differing_pairs:
            t = make_table(None, ("pair", f"verdict {ann[0]}", f"verdict {ann[1]}", f"p {ann[0]}", f"p {ann[1]}"),
                           numbers=(f"p {ann[0]}", f"p {ann[1]}"))
            for pv in rc.differing_pairs:
                t.add_row(
                    f"{pv.first} vs {pv.second}",
                    pv.verdict[0],
                    pv.verdict[1],
                    _num(pv.pvalue[0]),
                    _num(pv.pvalue[1]),
                )
            print_table(t)
    if result.exclusions:
        console.print("\n[bold]Left out[/]:", markup=True)
        for e in result.exclusions:
            console.print(f"  {e.what}: {e.reason}")


def significance(
    file: Annotated[Path, typer.Argument(help="Scores in long format: CSV, TSV, JSONL or Parquet.")],
    system: Annotated[str, typer.Option("--system", help="Column of the peer system.")],
    docset: Annotated[str, typer.Option("--docset", help="Column of the document set.")],
    score: Annotated[str, typer.Option("--score", help="Column of the score.")],
    annotation: Annotated[
        str | None,
        typer.Option("--annotation", help="Column of the annotation (two values); omit for one annotation."),
    ] = None,
    alpha: Annotated[float, typer.Option(help="Significance level of Tukey's HSD.")] = 0.05,
    confidence_level: Annotated[float, typer.Option(help="Level of the correlation intervals.")] = 0.95,
    power: Annotated[float, typer.Option(help="Target power of the sample-size computation.")] = 0.99,
    power_sig_level: Annotated[
        float, typer.Option(help="Significance level of the power computation.")
    ] = 0.01,
    format: Annotated[str, typer.Option("--format", help="auto, csv, tsv, jsonl or parquet.")] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Significance tests of the scores that two annotations give to the same systems.

    ANOVA with the annotation and with the system as factor, Pearson's r per
    system with Fisher intervals, Tukey's HSD groups, the comparison of the two
    rankings and the ANOVA power (Passonneau 2010, Tables 5-10).
    """
    from accord.significance._files import significance_file

    # every undefined statistic is printed with its reason, and every exclusion under "Left out" (the JSON holds
    # both): the library's warnings of them would repeat the output
    result = shown_in_output(significance_file, file, system=system, docset=docset, score=score,
                             annotation=annotation, format=format, alpha=alpha,  # type: ignore[arg-type]
                             confidence_level=confidence_level, power=power, power_sig_level=power_sig_level)
    if as_json:
        print_json(result)
    else:
        _print(result, file)


def register(app: typer.Typer) -> None:
    """Add ``accord significance`` to *app*."""
    app.command("significance")(cli_errors(significance))
