"""``accord report``: one self-contained HTML page of reliability, for any kind of annotation.

The options are those of ``accord agree``, ``coref``, ``multilabel``, ``pyramid score``, ``gold``,
``alt-test`` and ``judge``; the kind is told by ``--kind`` or guessed from the files.  An option left out is
passed as None (its default, decided in the library), so that one given to a kind that does not take it is
refused, never ignored.  The command reads its
options into one call (:func:`accord.reporting.report_files`), which reads and refuses the input (exit status 2, one
line) before anything is written and writes the page atomically (an existing file replaced only with
``--force``); the command says what was written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from accord._shared.errors import plural
from accord.cli._common import cli_errors, echo, print_json, warn
from accord.cli._importing import ImporterArgs
from accord.cli._options import OptionGroup, OrderOption, with_options
from accord.reporting._files import KIND_NAMES, default_output, detect_kind

__all__ = ["KIND_NAMES", "default_output", "detect_kind", "register"]


@dataclass(frozen=True)
class PageOptions(OptionGroup):
    """Where and how the page is written."""

    output: Annotated[Path | None, typer.Option("--output", "-o", help="The HTML file to write (default: the first "
                                                "input's name with .html, in the current folder).")] = None
    kind: Annotated[str, typer.Option(help="auto, agree, coref, multilabel, pyramid, gold, spans, relations (an "
                                      "export's relations and events, with --from) or models (the "
                                      "humans-and-models page; auto with --models), judge (the judge-audit page; "
                                      "auto with --judges).")] = "auto"
    force: Annotated[bool, typer.Option("--force", help="Replace an existing output file (never an input).")] = False
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help="The page's Export CSV writes every cell as it is: no "
                                          "leading ' before a cell beginning with =, +, -, @, a tab or a line break "
                                          "(accord's guard against spreadsheet formulas).")] = False
    figures: Annotated[Path | None, typer.Option(help="Also write each chart as SVG, PNG and PDF here.")] = None
    title: Annotated[str | None, typer.Option(help="Title of the page.")] = None
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False
    json_out: Annotated[bool, typer.Option("--json", help="Also print the headline numbers as JSON.")] = False
    max_rows: Annotated[int, typer.Option(help="Most rows of the adjudication list in the page.")] = 2000


@dataclass(frozen=True)
class AgreeReportOptions(OptionGroup):
    """The options of an agreement page (and the columns of a gold page), its bootstrap and level."""

    unit: Annotated[str | None, typer.Option(help="agree/gold: column of the unit (agree: told from the column "
                                             "names when not given; gold: default unit).")] = None
    coder: Annotated[str | None, typer.Option(help="agree/gold: column of the coder (agree: told from the column "
                                              "names; gold: default coder).")] = None
    value: Annotated[str | None, typer.Option(help="agree/gold: column of the value (agree: told from the column "
                                              "names; gold: default value).")] = None
    layout: Annotated[str | None, typer.Option(help="agree: long, wide or counts (default: told from the file).")
                      ] = None
    table_sep: Annotated[str | None, typer.Option("--table-sep", help="agree: the delimiter of a text table, one "
                                                  "character or 'tab' (default: sniffed).")] = None
    coders: Annotated[str | None, typer.Option(help="agree (wide): coder columns; coref: coder names, "
                                               "comma-separated.")] = None
    distance: Annotated[str | None, typer.Option(help="Distance (agree: nominal; coref: set-relation).")] = None
    coefficient: Annotated[str | None, typer.Option(help="agree: 'all' (the default) or comma-separated coefficient "
                                                    "names (those of agree, or the names people use: "
                                                    "krippendorff, cohen-kappa...).")] = None
    order: OrderOption = None
    bootstrap: Annotated[int | None, typer.Option(help="Bootstrap resamples for the intervals (0: none; default "
                                                  "1000, and 2000 for a judge audit, as accord judge --n-boot).")
                         ] = None
    seed: Annotated[int | None, typer.Option(help="Seed of the bootstrap.")] = None
    confidence: Annotated[float | None, typer.Option(help="Confidence level of the intervals and the noise bound "
                                                     "(default 0.95).")] = None


@dataclass(frozen=True)
class KindOptions(OptionGroup):
    """The options of the coreference, multi-label, pyramid, span, gold and humans-and-models pages."""

    fmt: Annotated[str | None, typer.Option("--format", help="coref: auto, conll, brat, jsonl, csv, corefud; "
                                            "multilabel: auto, compact, ranked (default auto).")] = None
    key: Annotated[Path | None, typer.Option(help="coref: a key (gold) annotation for MUC, B3, CEAF, BLANC, LEA.")
                   ] = None
    missing_mentions: Annotated[str | None, typer.Option(help="coref: singleton (the default), missing or error.")
                                ] = None
    align: Annotated[str | None, typer.Option(help="coref: tokens (the default: the files must hold the same "
                                              "tokens) or words (align them by their words, the differences "
                                              "said).")] = None
    p: Annotated[float | None, typer.Option("--p", help="multilabel: weight of the primary label (0.6); gold: chance "
                                            "agreement on hard items (estimated).")] = None
    rule: Annotated[str | None, typer.Option(help="multilabel: pair (the default), geometric or primary-rest.")
                    ] = None
    tolerance: Annotated[float | None, typer.Option(help="multilabel: tolerance of a nearly constant item (0.1).")
                         ] = None
    high: Annotated[float | None, typer.Option(help="multilabel: smallest score of a constant-high item (0.6).")
                    ] = None
    item: Annotated[str | None, typer.Option(help="multilabel: column of the item (item).")] = None
    annotator: Annotated[str | None, typer.Option(help="multilabel: column of the annotator (annotator).")] = None
    sep: Annotated[str | None, typer.Option(help="multilabel: separator inside a labels cell (a comma).")] = None
    convention: Annotated[str | None, typer.Option(help="pyramid: scoring convention (paper).")] = None
    start_regex: Annotated[str | None, typer.Option("--start-regex", help="pyramid: regex of each model's start.")
                           ] = None
    texts: Annotated[Path | None, typer.Option(help="spans, relations: document texts (a folder of .txt, or "
                                               "CSV/JSONL).")] = None
    match: Annotated[str | None, typer.Option(help="spans, relations: exact (the default) or overlap.")] = None
    tokens: Annotated[str | None, typer.Option(help="spans: whitespace (the default) or export tokens.")] = None
    gamma: Annotated[bool, typer.Option("--gamma", help="spans: also gamma, with the best alignment of each "
                                        "document drawn (seeded by --seed).")] = False
    gamma_alignment: Annotated[str | None, typer.Option(help="spans: gamma's alignments, exact, windowed or auto "
                                                        "(the default).")] = None
    target_gamma: Annotated[float | None, typer.Option("--target-gamma", help="gold: noise target (0.05).")] = None
    drop_incomplete: Annotated[bool, typer.Option("--drop-incomplete", help="gold: leave out incomplete items.")
                               ] = False
    models: Annotated[str | None, typer.Option("--models", help="models: the coders that are models (comma-"
                                               "separated names or patterns); gives the humans-and-models page.")
                      ] = None
    epsilon: Annotated[float | None, typer.Option(help="models, judge: the model's cost-benefit advantage epsilon "
                                                  "(0.2).")] = None
    alpha: Annotated[float | None, typer.Option(help="models, judge: false discovery rate across the humans (0.05).")
                     ] = None
    scoring: Annotated[str | None, typer.Option(help="models: auto (the default), accuracy, neg_rmse, jaccard or "
                                                "rank.")] = None
    min_items: Annotated[int | None, typer.Option(help="models, judge: least items per human tested (30).")] = None


@dataclass(frozen=True)
class JudgeReportOptions(OptionGroup):
    """The options of a judge-audit page (those of ``accord judge``), refused with another kind."""

    judges: Annotated[str | None, typer.Option("--judges", help="judge: the coders that are LLM judges (comma-"
                                               "separated names or patterns); gives the judge-audit page.")] = None
    position: Annotated[str | None, typer.Option(help="judge: column of the presentation order, two values (humans "
                                                 "may leave it empty).")] = None
    verdict_refers_to: Annotated[str | None, typer.Option(help="judge: with --position, whether a verdict names a "
                                                          "position or an option.")] = None
    positions: Annotated[str | None, typer.Option(help="judge: the two values of --position, the canonical order "
                                                  "first, comma-separated (default: the smaller first).")] = None
    run: Annotated[str | None, typer.Option(help="judge: column of the run, for repeated runs of a judge.")] = None
    positive: Annotated[str | None, typer.Option(help="judge: the verdict that is a pass (default: told from its "
                                                 "name: pass, yes, true, 1...).")] = None
    mcnemar: Annotated[str | None, typer.Option(help="judge: McNemar's test, exact (binomial; the default) or "
                                                "chi-square (with continuity correction).")] = None
    pass_rate_interval: Annotated[str | None, typer.Option(help="judge: Rogan-Gladen interval, delta (the default) "
                                                           "or bootstrap.")] = None
    power_tuned: Annotated[bool, typer.Option("--power-tuned", help="judge: prediction-powered estimate with the "
                                              "power-tuned lambda (PPI++).")] = False


@with_options
def _report(
    inputs: Annotated[list[Path], typer.Argument(help="The annotation file(s): as for agree, coref (one per coder), "
                                                 "multilabel, gold, or a pyramid then its peer annotations.")],
    page: PageOptions = PageOptions(),
    table: AgreeReportOptions = AgreeReportOptions(),
    kinds: KindOptions = KindOptions(),
    judge: JudgeReportOptions = JudgeReportOptions(),
    importer: ImporterArgs = ImporterArgs(),
) -> None:
    """One HTML page of reliability to read, share and act on (works offline, prints to PDF).

    Examples: accord report labels.csv -o report.html --distance ordinal --seed 1;
    accord report ann1.conll ann2.conll --key gold.conll -o coref.html;
    accord report judgments.csv --judges gpt-4o --position order --verdict-refers-to position --run run
    """
    from accord.reporting._files import report_files

    options = {**page.as_dict(exclude=("quiet", "json_out")), **table.as_dict(), **kinds.as_dict(), **judge.as_dict()}
    run = report_files(inputs, importer=importer, progress=not page.quiet, say=lambda line: echo(line, err=True),
                       **options)
    for message in run.warnings:
        warn(message)
    if run.imported is not None and not page.json_out:
        echo(run.imported.report.summary(cli=True), err=True)
    if run.read_as is not None and not page.json_out:
        echo(f"accord: read {inputs[0]} as {run.read_as}", err=True)
    if page.json_out:
        print_json(run.to_dict())
        return
    echo(f"wrote {run.output}")
    if run.figures:
        echo(f"wrote {plural(len(run.figures), 'figure')} to {page.figures}")


def register(app: typer.Typer) -> None:
    """Add ``report`` to *app*."""
    app.command("report")(cli_errors(_report))
