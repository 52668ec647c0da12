"""``accord alt-test``: may a model replace the human annotators? The alternative annotator test (Calderon,
Reichart & Dror 2025) of one or several models, and what a lead reads next: alpha among the humans and with
each model added, the items where a model departs from a (near-)unanimous panel, and, with ``--guidance``,
the paper's simulation for choosing epsilon and the number of items."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from accord._shared.errors import AccordError
from accord.cli._common import cli_errors, console, echo, print_json, said
from accord.cli._importing import ImporterArgs
from accord.cli._options import OptionGroup, TableOptions, with_options
from accord.cli._render import print_table, table

__all__ = ["register"]


def _fmt(x: Any, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if math.isnan(x):
            return "undefined"
        if math.isinf(x):
            return "-inf" if x < 0 else "inf"
        return f"{x:.{digits}f}"
    return str(x)


def _p(x: float) -> str:
    if math.isnan(x):
        return "undefined"
    return f"{x:.3g}" if x < 0.001 else f"{x:.4f}"


@dataclass(frozen=True)
class AltTestOptions(OptionGroup):
    """The test's options: the models, epsilon, the false discovery rate, the score, the panel."""

    models: Annotated[str, typer.Option("--models", help="The coders that are models, comma-separated; a name may "
                                        "be a pattern (gpt-*). Every other coder is a human.")]
    epsilon: Annotated[float, typer.Option(help="The model's cost-benefit advantage, in [0, 1): 0.2 for expert "
                                           "annotators, 0.15 skilled, 0.1 crowd workers (the paper's rule).")] = 0.2
    alpha: Annotated[float, typer.Option(help="False discovery rate across the humans (Benjamini-Yekutieli).")
                     ] = 0.05
    scoring: Annotated[str, typer.Option(help="Alignment score: auto, accuracy (labels), neg_rmse (ratings), "
                                         "jaccard (label sets), rank (neg_rmse over each coder's ranks); auto: "
                                         "jaccard for sets, neg_rmse for numbers, else accuracy.")] = "auto"
    min_items: Annotated[int, typer.Option(help="Least items a human shares with the model and another human to "
                                           "be tested (the paper: 30).")] = 30
    min_humans: Annotated[int, typer.Option(help="Least humans (the paper recommends 3).")] = 3
    distance: Annotated[str | None, typer.Option(help="Distance of the panel's alpha (default: nominal for "
                                                 "accuracy, interval for neg_rmse, ordinal for rank, jaccard for "
                                                 "sets).")] = None
    max_dissent: Annotated[int, typer.Option(help="Departures: humans who may disagree with the panel's value for "
                                             "it to count as near-unanimous (0: unanimous only).")] = 1


@dataclass(frozen=True)
class GuidanceOptions(OptionGroup):
    """The paper's simulation for choosing epsilon and the number of items (``--guidance``)."""

    guidance: Annotated[bool, typer.Option("--guidance", help="Also run the paper's simulation for this many "
                                           "labels and humans: the winning rate by number of items and epsilon.")
                        ] = False
    noise_humans: Annotated[float, typer.Option(help="--guidance: the humans' noise (0.1, 0.2, 0.3, 0.4 give "
                                                "kappa about .80, .63, .48, .36 with four labels).")] = 0.3
    noise_model: Annotated[float, typer.Option(help="--guidance: the model's noise.")] = 0.3
    seed: Annotated[int | None, typer.Option(help="--guidance: seed of the simulation.")] = None
    sim_sizes: Annotated[str, typer.Option(help="--guidance: numbers of items to simulate, comma-separated.")
                         ] = "30,40,50,60,70,80,90,100,120,140,160,180,200"
    sim_datasets: Annotated[int, typer.Option(help="--guidance: datasets drawn (each with its own label "
                                              "priors).")] = 20
    sim_draws: Annotated[int, typer.Option(help="--guidance: draws of items and humans per dataset and size.")
                         ] = 10

    def study_options(self) -> dict[str, Any]:
        """The options as :func:`accord.models_vs_humans.alt_test_study` takes them."""
        return {"guidance": self.guidance, "noise_humans": self.noise_humans, "noise_model": self.noise_model,
                "rng": self.seed, "sizes": self.sim_sizes, "n_datasets": self.sim_datasets,
                "n_boots": self.sim_draws}


@dataclass(frozen=True)
class PanelTableOptions(TableOptions):
    """How to read a plain table of humans and models: its columns and layout (told from the file where not
    given)."""

    coder: Annotated[str | None, typer.Option(help="Column holding the coder id (default: told from the column "
                                              "names: coder, annotator, rater, worker...).")] = None
    value: Annotated[str | None, typer.Option(help="Column holding the value; JSON lists for label sets (default: "
                                              "told from the column names: value, label, score, rating...).")
                     ] = None
    layout: Annotated[str | None, typer.Option(help="long: one row per (unit, coder, value); wide: one row per unit, "
                                               "a column per coder (default: told from the file).")] = None


@with_options
def alt_test_command(
    file: Annotated[Path, typer.Argument(help="Annotations holding the humans and the models as coders: any input "
                                         "accord agree reads in memory (a long or wide table, an annotation tool's "
                                         "export).")],
    test: AltTestOptions,
    max_rows: Annotated[int, typer.Option(help="Most departures printed (all with --json).")] = 20,
    guide: GuidanceOptions = GuidanceOptions(),
    table: PanelTableOptions = PanelTableOptions(),
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    importer: ImporterArgs = ImporterArgs(),
) -> None:
    """May a model replace the human annotators? The alternative annotator test (Calderon, Reichart & Dror 2025).

    Examples: accord alt-test labels.csv --models gpt-4o --epsilon 0.15;
    accord alt-test export.json --from label-studio --field sentiment --models "llm-*" --json
    """
    from accord.models_vs_humans._study import alt_test_file

    if max_rows < 0:
        raise AccordError(f"--max-rows must be >= 0; got {max_rows}")
    study = alt_test_file(file, importer=importer, **table.read_options(), **test.as_dict(),
                          **guide.study_options(), say=lambda line: echo(line, err=True))
    if study.imported is not None and not json_out:
        echo(study.imported.report.summary(), err=True)
    if json_out:
        print_json({**study.to_dict(), "notes": [said(n) for n in study.notes]})
        return
    if study.read_as is not None:
        echo(f"accord: read {file} as {study.read_as}", err=True)
    _print(file, study.alt_test, study.panel_agreement, study.panel_departures,
           [said(n) for n in study.notes], max_rows)
    if study.guidance is not None:
        _print_guidance(study.guidance)


def _print(file: Path, result: Any, agreement: Any, departures: Any, notes: list[str], max_rows: int) -> None:
    from accord.models_vs_humans._guidance import EPSILON_RULES, ITEMS_ADVICE

    eps = f"epsilon {result.epsilon:g}, alpha {result.alpha:g}"
    numbers = ("items", "humans tested", "wins", "omega", "rho")
    summary = table(f"Alternative annotator test in {file.name} ({len(result.humans)} humans, {result.n_units} items; "
                    f"scoring {result.scoring}, {eps})", ("model", *numbers, "verdict"), numbers=numbers)
    for t in result.tests:
        verdict = "undefined" if t.passes is None else "passes" if t.passes else "fails"
        summary.add_row(str(t.model), str(t.n_items), str(t.n_humans), str(t.n_wins), _fmt(t.omega), _fmt(t.rho),
                        verdict)
    print_table(summary)
    for t in result.tests:
        if t.passes is not None:
            console.print(f"{t.model} {'passes' if t.passes else 'fails'}: it wins against {t.n_wins} of {t.n_humans} "
                          f"humans at epsilon {result.epsilon:g} (half are needed); "
                          + ("it may replace them." if t.passes else "keep the humans."))
    for t in result.tests:
        if t.undefined_reason:
            console.print(f"[yellow]{escape(str(t.model))}: undefined:[/yellow] {escape(t.undefined_reason)}",
                          markup=True)
            continue
        numbers = ("items", "rho model", "rho human", "t", "p", "p (BY)", "model wins")
        per = table(f"{t.model} against each human left out", ("human", *numbers), numbers=numbers)
        for c in t.comparisons:
            per.add_row(str(c.human), str(c.n_items), _fmt(c.rho_model), _fmt(c.rho_human), _fmt(c.t_statistic, 3),
                        _p(c.p_value), _p(c.p_adjusted), "yes" if c.model_wins else "no")
        print_table(per)
        for c in t.comparisons:
            if c.note:
                console.print(f"note: {c.human}: {c.note}")
        for s in t.not_tested:
            console.print(f"not tested: {s.human}: {s.reason} (still one of the remaining humans)")
    best = result.best()
    if best is not None and len(result.tests) > 1:
        console.print(f"highest advantage probability rho: {best.model} ({best.rho:.4f}); rho compares models, "
                      "omega decides whether one may replace the humans")
    rule = ", ".join(f"{v:g} for {k}" for k, v in EPSILON_RULES.items())
    console.print(f"epsilon: the paper suggests {rule}, smaller when the humans agree little; items: {ITEMS_ADVICE}")
    a = table(f"Agreement among the humans, and with each model added (alpha, {agreement.distance})",
              ("coders", "alpha", "change", "pairable units"), numbers=("alpha", "change", "pairable units"))
    for row in agreement.to_frame().itertuples(index=False):
        a.add_row(str(row.coders), _fmt(row.alpha), _fmt(row.change), str(row.n_pairable_units))
    print_table(a)
    for msg in notes:
        console.print(f"[yellow]note:[/yellow] {escape(msg)}", markup=True)
    frame = departures.to_frame()
    panel = "unanimous" if departures.max_dissent == 0 else f"unanimous or all but {departures.max_dissent}"
    for model in departures.models:
        n, k = departures.n_panel_items[model], departures.n_departures[model]
        share = f" ({k / n:.1%})" if n else ""
        console.print(f"{model} departs from a {panel} human panel on {k} of {n} items{share}")
    if len(frame) and max_rows:
        d = table(f"Items to adjudicate: the model departs from the panel (first {min(max_rows, len(frame))} "
                  f"of {len(frame)})", ("model", "unit", "model value", "panel value", "panel"))
        for row in frame.head(max_rows).itertuples(index=False):
            d.add_row(str(row.model), str(row.unit), str(row.model_value), str(row.panel_value),
                      f"{row.n_agree} of {row.n_panel}")
        print_table(d)


def _print_guidance(sim: Any) -> None:
    frame = sim.to_frame()
    numbers = ("items", *(f"eps {e:g}" for e in sim.epsilons), "rho", "humans' alpha")
    t = table(f"Simulated winning rate omega by items (rows) and epsilon (eps, columns) ({sim.n_categories} labels, "
              f"{sim.n_humans} humans, noise humans {sim.noise_humans:g}, model {sim.noise_model:g}; "
              f"{sim.n_datasets} datasets x {sim.n_boots} draws, seed {sim.seed})", numbers, numbers=numbers)
    for row in frame.to_dict("records"):
        t.add_row(str(int(row["size"])), *[_fmt(row[f"omega_{e:g}"], 2) for e in sim.epsilons], _fmt(row["rho"], 3),
                  _fmt(row["alpha_humans"], 3))
    print_table(t)
    needed = ", ".join(f"eps {e:g}: {'never' if n is None else f'{n} items'}" for e, n in sim.items_needed().items())
    console.print(f"mean omega reaches 0.5 from: {needed}")


def register(app: typer.Typer) -> None:
    """Add ``alt-test`` to *app*."""
    app.command("alt-test")(cli_errors(alt_test_command))
