"""``accord judge``: audit LLM judges before they replace anyone: position consistency (Zheng et al. 2023),
repeatability across runs, agreement with the humans beside the humans' own, the pass rate corrected
(Rogan-Gladen, prediction-powered inference) and the alternative annotator test.  One library call
(:func:`accord.judge_audit`), then the tables."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from accord.cli._common import cli_errors, console, echo, print_json
from accord.cli._importing import ImporterArgs
from accord.cli._options import OptionGroup, TableOptions, with_options
from accord.cli._render import print_table
from accord.cli._render import table as make_table

__all__ = ["register"]



def _p(x: Any) -> str:
    """A share or coefficient to three decimals; ``undefined`` for NaN or None."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "undefined"
    if isinstance(x, str):
        return x
    return f"{x:.3f}"


def _prop(p: Any) -> str:
    """A proportion with its interval and counts."""
    if p is None:
        return "-"
    if p.n == 0:
        return "undefined (no items)"
    return f"{p.estimate:.3f} [{p.ci_low:.3f}, {p.ci_high:.3f}] ({p.count}/{p.n})"


def _prop_lines(p: Any) -> str:
    """A proportion as a cell of two lines, the estimate and counts over the interval: a table of three of them
    fits 80 columns."""
    if p is None or p.n == 0:
        return _prop(p)
    return f"{p.estimate:.3f} ({p.count}/{p.n})\n[{p.ci_low:.3f}, {p.ci_high:.3f}]"


def _pval(x: float) -> str:
    if x is None or math.isnan(x):
        return "undefined"
    return f"{x:.3g}" if x < 0.001 else f"{x:.4f}"


@dataclass(frozen=True)
class JudgeOptions(OptionGroup):
    """The audit's options: which verdict passes, the intervals, the tests, the alt-test's own."""

    positive: Annotated[str | None, typer.Option(help="The verdict that is a pass (default: told from its name: "
                                                 "pass, yes, true, 1...).")] = None
    epsilon: Annotated[float, typer.Option(help="Alt-test: the judge's cost-benefit advantage, in [0, 1).")] = 0.2
    alpha: Annotated[float, typer.Option(help="Alt-test: the false discovery rate across the humans.")] = 0.05
    min_items: Annotated[int, typer.Option(help="Alt-test: least items a human shares with the judge and another "
                                           "human (the paper: 30).")] = 30
    confidence: Annotated[float, typer.Option(help="Level of every interval.")] = 0.95
    mcnemar: Annotated[str, typer.Option(help="McNemar's test: exact (binomial) or chi-square (with continuity "
                                         "correction).")] = "exact"
    pass_rate_interval: Annotated[str, typer.Option(help="Rogan-Gladen interval: delta or bootstrap.")] = "delta"
    n_boot: Annotated[int, typer.Option(help="Bootstrap draws.")] = 2000
    power_tuned: Annotated[bool, typer.Option("--power-tuned", help="Prediction-powered estimate with the "
                                              "power-tuned lambda (PPI++).")] = False
    seed: Annotated[int | None, typer.Option(help="Seed of the bootstrap.")] = None
    distance: Annotated[str, typer.Option(help="Distance of alpha and kappa: auto (interval for scores, else "
                                          "nominal), nominal, ordinal, interval, ratio.")] = "auto"

    def audit_options(self) -> dict[str, Any]:
        """The options as :func:`accord.judge_audit` takes them."""
        return {**self.as_dict(exclude=("confidence", "seed")), "confidence_level": self.confidence,
                "rng": self.seed}


@with_options
def judge_command(
    file: Annotated[Path, typer.Argument(help="Judgments: a long table (CSV, TSV, JSON lines, Parquet, .xlsx) with "
                                         "a row per item, coder and verdict (and the order and run columns); "
                                         "without --position and --run, any input accord alt-test reads (a wide "
                                         "table, an annotation tool's export).")],
    judges: Annotated[str, typer.Option("--judges", help="The coders that are judges, comma-separated; a name may be "
                                        "a pattern (gpt-*). Every other coder is a human.")],
    position: Annotated[str | None, typer.Option(help="Column of the presentation order: two values, the canonical "
                                                 "order and its swap (humans may leave it empty).")] = None,
    verdict_refers_to: Annotated[str | None, typer.Option(help="With --position: position (first = the answer shown "
                                                          "first) or option (first = option A wherever shown).")]
    = None,
    positions: Annotated[str | None, typer.Option(help="The two values of --position, the canonical order first, "
                                                  "comma-separated (default: the smaller first).")] = None,
    run: Annotated[str | None, typer.Option(help="Column of the run, for repeated runs of a judge.")] = None,
    audit: JudgeOptions = JudgeOptions(),
    table: TableOptions = TableOptions(),
    max_rows: Annotated[int, typer.Option(min=0, help="Most flips and disagreements printed per judge (all with "
                                          "--json).")] = 10,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    importer: ImporterArgs = ImporterArgs(),
) -> None:
    """Audit LLM judges: consistent across orders, repeatable across runs, right against the humans?

    Examples: accord judge judgments.csv --judges gpt-4o --position order --verdict-refers-to position --run run;
    accord judge labels.csv --judges "llm-*" --json
    """
    from accord.models_vs_humans import judge_audit_file

    result = judge_audit_file(
        file, judges=judges, position=position, run=run, verdict_refers_to=verdict_refers_to,
        positions=tuple(x.strip() for x in positions.split(",")) if positions else None, importer=importer,
        say=None if json_out else (lambda line: echo(line, err=True)), **table.read_options(),
        **audit.audit_options())
    if json_out:
        print_json(result.to_dict())
        return
    _print(file, result, max_rows)


def _print(file: Path, result: Any, max_rows: int) -> None:
    level = f"{result.confidence_level:.0%}"
    summary = make_table(f"Judge audit of {file.name} ({len(result.humans)} humans; {result.kind} verdicts; "
                    f"{level} intervals)", ("check", *(str(a.judge) for a in result.audits)),
                    numbers=[str(a.judge) for a in result.audits])
    heads = [a.summary() for a in result.audits]
    for key in list(heads[0])[1:]:
        shown = _pval if key == "McNemar p" else _p
        summary.add_row(key, *[str(h[key]) if isinstance(h[key], int) else shown(h[key]) for h in heads])
    print_table(summary)
    if result.n_missing:
        console.print(f"{result.n_missing} rows of the humans without a verdict are left out")
    for a in result.audits:
        _print_audit(a, result, max_rows)


def _print_audit(a: Any, result: Any, max_rows: int) -> None:
    name = escape(str(a.judge))
    console.print(f"\n[bold]{name}[/bold]: {a.n_items} items, {a.n_judgments} judgments, {a.n_errors} errors",
                  markup=True)
    p = a.position
    if p.undefined_reason:
        console.print(f"position consistency: undefined: {escape(p.undefined_reason)}", markup=True)
    else:
        t = make_table(f"Position consistency over {p.n_pairs} pairs (Zheng et al. 2023)",
                  ("share", "estimate [interval] (count/pairs)"), numbers=("estimate [interval] (count/pairs)",))
        for label, prop in (("consistency", p.consistency), ("biased toward first", p.biased_first),
                            ("biased toward second", p.biased_second), ("error", p.error)):
            t.add_row(label, _prop(prop))
        print_table(t)
        m = p.mcnemar
        console.print(f"McNemar ({m.method}): {m.count_first} lean first, {m.count_second} second, p = "
                      f"{_pval(m.p_value)}: {p.verdict}")
        _flips("position flips", [(f.unit, f.run, f.canonical, f.swapped, f.leans) for f in p.flips],
               ("unit", "run", "canonical order", "swapped order", "leans"), max_rows)
    r = a.repeatability
    if r.undefined_reason and r.all_agree is None:
        console.print(f"repeatability: undefined: {escape(r.undefined_reason)}", markup=True)
    else:
        interval = "" if math.isnan(r.alpha_ci_low) else (f" [{r.alpha_ci_low:.3f}, {r.alpha_ci_high:.3f}]"
                                                          + (f" ({result.n_boot:,} draws)" if result.n_boot else ""))
        console.print(f"repeatability over {r.n_runs} runs, {r.n_items} items: alpha ({r.distance}) "
                      f"{_p(r.alpha)}{interval}; every run agrees on {_prop(r.all_agree)}")
        _flips("run flips", [(f.unit, f.position, ", ".join(f"{k}: {v}" for k, v in f.verdicts)) for f in r.flips],
               ("unit", "order", "verdicts by run"), max_rows)
    h = a.humans
    if h.undefined_reason:
        console.print(f"agreement with humans: undefined: {escape(h.undefined_reason)}", markup=True)
    else:
        _print_with_humans((*h.with_humans, *((h.with_majority,) if h.with_majority else ())),
                           ties=result.kind == "pairwise")
        console.print(f"pooled over votes (Zheng et al.): judge {_prop(h.pooled)}; the humans among themselves "
                      f"{_prop(h.humans_pooled)}, alpha {_p(h.humans_alpha)}"
                      + ("" if math.isnan(h.humans_alpha_ci_low) else
                         f" [{h.humans_alpha_ci_low:.3f}, {h.humans_alpha_ci_high:.3f}]") + " (the ceiling)")
        if h.n_no_majority:
            console.print(f"{h.n_no_majority} items without a strict human majority are left out of the majority")
        _flips("disagreements with the human majority",
               [(d.unit, d.judge, d.majority, f"{d.n_majority} of {d.n_humans}") for d in a.disagreements],
               ("unit", "judge", "majority", "majority votes"), max_rows)
    pr = a.pass_rate
    if pr.rogan_gladen is None and pr.ppi is None:
        console.print(f"pass rate: undefined: {escape(pr.undefined_reason or '')}", markup=True)
    else:
        what = f"pass rate ({pr.positive!s} is a pass)" if pr.positive is not None else "mean score"
        raw = _prop(pr.raw) if pr.raw is not None else _p(pr.raw_mean)
        console.print(f"{what}: raw judge {raw}; {pr.n_labeled} items with a human label, {pr.n_unlabeled} "
                      "without")
        rg = pr.rogan_gladen
        if rg is not None:
            console.print("  Rogan-Gladen: " + (f"{rg.estimate:.3f} [{rg.ci_low:.3f}, {rg.ci_high:.3f}] ({rg.method}; "
                                                 f"sensitivity {rg.sensitivity:.3f}, specificity {rg.specificity:.3f})"
                                                 if rg.undefined_reason is None else
                                                 f"undefined: {rg.undefined_reason}"))
        ppi = pr.ppi
        if ppi is not None:
            kind = "PPI++" if ppi.power_tuned else "PPI"
            console.print(f"  prediction-powered ({kind}): " + (
                f"{ppi.estimate:.3f} [{ppi.ci_low:.3f}, {ppi.ci_high:.3f}] (lambda {ppi.lam:.3f})"
                if ppi.undefined_reason is None else f"undefined: {ppi.undefined_reason}"))
    if a.alt_test is not None and a.alt_test.passes is not None:
        t = a.alt_test
        console.print(f"alt-test (epsilon {result.epsilon:g}): {t.verdict}: wins against {t.n_wins} of {t.n_humans} "
                      f"humans, omega {t.omega:.3f}, rho {t.rho:.3f}")
    else:
        console.print(f"alt-test: not run: {escape(a.alt_test_reason or 'undefined')}", markup=True)


def _print_with_humans(others: tuple[Any, ...], *, ties: bool) -> None:
    """The judge against each human and the majority: accuracy (without ties), kappa; with binary verdicts, a
    second table of the rates on the pass label. Each cell is the estimate and counts over the interval."""
    t = make_table("Agreement with the humans: estimate (count/items), interval below",
              ("with", "items", "accuracy", *(["without ties"] if ties else []), "kappa"),
              numbers=("items", "accuracy", "without ties", "kappa"))
    for w in others:
        kappa = (f"{w.kappa:.3f}\n[{w.kappa_ci_low:.3f}, {w.kappa_ci_high:.3f}]" if not math.isnan(w.kappa_ci_low)
                 else _p(w.kappa))
        t.add_row(str(w.other), str(w.n_items), _prop_lines(w.accuracy),
                  *([_prop_lines(w.accuracy_without_ties)] if ties else []), kappa)
    print_table(t)
    if any(w.true_positive_rate is not None for w in others):
        t = make_table("Rates on the pass label, the humans' as truth", ("with", "TPR", "TNR", "precision"),
                  numbers=("TPR", "TNR", "precision"))
        for w in others:
            t.add_row(str(w.other), _prop_lines(w.true_positive_rate), _prop_lines(w.true_negative_rate),
                      _prop_lines(w.precision))
        print_table(t)


def _flips(title: str, rows: list[tuple[Any, ...]], cols: tuple[str, ...], max_rows: int) -> None:
    if not rows or not max_rows:
        if rows:
            console.print(f"{title}: {len(rows)} (listed with --max-rows or --json)")
        return
    t = make_table(f"{title} (first {min(max_rows, len(rows))} of {len(rows)})", cols)
    for row in rows[:max_rows]:
        t.add_row(*["-" if x is None else str(x) for x in row])
    print_table(t)


def register(app: typer.Typer) -> None:
    """Add ``judge`` to *app*."""
    app.command("judge")(cli_errors(judge_command))
