"""``accord alt-test``: may a model replace the human annotators? The alternative annotator test (Calderon,
Reichart & Dror 2025) of one or several models, and what a lead reads next: alpha among the humans and with
each model added, the items where a model departs from a (near-)unanimous panel, and, with ``--guidance``,
the paper's simulation for choosing epsilon and the number of items."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from accord._shared.errors import AccordError
from accord.cli._common import cli_errors, console, echo, print_json, said
from accord.cli._importing import ImporterArgs, importer_options

__all__ = ["load_annotations", "register"]

_NO_IMPORTER = ImporterArgs()
#: the distance of the panel's alpha that fits each score
_PANEL_DISTANCE = {"accuracy": "nominal", "neg_rmse": "interval", "rank": "ordinal", "jaccard": "jaccard"}


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


def load_annotations(file: Path, importer: ImporterArgs, *, unit: str | None, coder: str | None,
                     value: str | None, layout: str | None, coders: str | None, json_out: bool,
                     sep: str | None = None) -> tuple[Any, Any]:
    """Read *file* as ``accord agree`` reads it in memory: a plain table (its columns and layout told from the
    file where not given, :func:`accord.read`), or an annotation tool's export (``--from``, guessed for JSON,
    zips and tables with a tool's header).  Returns ``(annotations, import)``, the import None for a plain
    table (whose ``read_as`` says what was read)."""
    from dataclasses import replace

    from accord._shared.errors import choice_error
    from accord.cli._importing import headed_table, load_export
    from accord.data._read import read

    if layout is not None and layout not in ("long", "wide"):
        raise choice_error("layout", layout, ("long", "wide"))
    coder_cols = [c.strip() for c in coders.split(",")] if coders else None
    headed = importer.tool is None and importer.sheet is None and headed_table(file) is not None
    imported = None
    if importer.tool is not None or headed or file.suffix.lower() not in (".csv", ".tsv", ".tab", ".parquet", ".pq"):
        read_as = importer if importer.field is not None or value in (None, "value") else replace(importer,
                                                                                                 field=value)
        given = {"layout": layout, "unit": unit, "coder": coder, "coders": coder_cols}
        imported = load_export(file, read_as, plain_fallback=True, fits="categorical",
                               spreadsheet_options={k: v for k, v in given.items() if v is not None})
    if imported is None:
        passed = [f for f in importer.given() if f in ("--offsets", "--option")]
        if passed:
            raise AccordError(f"{' and '.join(passed)} {'pass' if len(passed) > 1 else 'passes'} options to an "
                              "annotation tool's importer (with --from)")
        if importer.field is not None:
            raise AccordError("--field reads a field of an annotation tool's export (with --from); for a table use "
                              "--value")
        sheet: str | int = 0 if importer.sheet is None else (
            int(importer.sheet) if importer.sheet.strip().isdigit() else importer.sheet)
        data = read(file, unit=unit, coder=coder, value=value, layout=layout,  # type: ignore[arg-type]
                    coders=coder_cols, sheet=sheet, sep=sep)
        return data, None
    if imported.kind == "spans":
        held = "this export holds spans" if imported.field is None else f"field {imported.field!r} holds spans"
        raise AccordError(f"{file}: {held}; the alternative annotator test compares a label, rating or label set "
                          "per item (choose one with --field)")
    if not json_out:
        echo(imported.report.summary(), err=True)
    return imported.annotations, imported


@importer_options
def alt_test_command(
    file: Annotated[Path, typer.Argument(help="Annotations holding the humans and the models as coders: any input "
                                         "accord agree reads in memory (a long or wide table, an annotation tool's "
                                         "export).")],
    models: Annotated[str, typer.Option("--models", help="The coders that are models, comma-separated; a name may "
                                        "be a pattern (gpt-*). Every other coder is a human.")],
    epsilon: Annotated[float, typer.Option(help="The model's cost-benefit advantage, in [0, 1): 0.2 for expert "
                                           "annotators, 0.15 skilled, 0.1 crowd workers (the paper's rule).")] = 0.2,
    alpha: Annotated[float, typer.Option(help="False discovery rate across the humans (Benjamini-Yekutieli).")]
    = 0.05,
    scoring: Annotated[str, typer.Option(help="Alignment score: auto, accuracy (labels), neg_rmse (ratings), "
                                         "jaccard (label sets), rank (neg_rmse over each coder's ranks); auto: "
                                         "jaccard for sets, neg_rmse for numbers, else accuracy.")] = "auto",
    min_items: Annotated[int, typer.Option(help="Least items a human shares with the model and another human to "
                                           "be tested (the paper: 30).")] = 30,
    min_humans: Annotated[int, typer.Option(help="Least humans (the paper recommends 3).")] = 3,
    distance: Annotated[str | None, typer.Option(help="Distance of the panel's alpha (default: nominal for "
                                                 "accuracy, interval for neg_rmse, ordinal for rank, jaccard for "
                                                 "sets).")] = None,
    max_dissent: Annotated[int, typer.Option(help="Departures: humans who may disagree with the panel's value for "
                                             "it to count as near-unanimous (0: unanimous only).")] = 1,
    max_rows: Annotated[int, typer.Option(help="Most departures printed (all with --json).")] = 20,
    guidance: Annotated[bool, typer.Option("--guidance", help="Also run the paper's simulation for this many "
                                           "labels and humans: the winning rate by number of items and epsilon.")]
    = False,
    noise_humans: Annotated[float, typer.Option(help="--guidance: the humans' noise (0.1, 0.2, 0.3, 0.4 give "
                                                "kappa about .80, .63, .48, .36 with four labels).")] = 0.3,
    noise_model: Annotated[float, typer.Option(help="--guidance: the model's noise.")] = 0.3,
    seed: Annotated[int | None, typer.Option(help="--guidance: seed of the simulation.")] = None,
    sim_sizes: Annotated[str, typer.Option(help="--guidance: numbers of items to simulate, comma-separated.")]
    = "30,40,50,60,70,80,90,100,120,140,160,180,200",
    sim_datasets: Annotated[int, typer.Option(help="--guidance: datasets drawn (each with its own label "
                                              "priors).")] = 20,
    sim_draws: Annotated[int, typer.Option(help="--guidance: draws of items and humans per dataset and size.")]
    = 10,
    unit: Annotated[str | None, typer.Option(help="Column holding the unit (item) id (default: told from the "
                                             "column names: unit, item, id, doc_id, question...).")] = None,
    coder: Annotated[str | None, typer.Option(help="Column holding the coder id (default: told from the column "
                                              "names: coder, annotator, rater, worker...).")] = None,
    value: Annotated[str | None, typer.Option(help="Column holding the value; JSON lists for label sets (default: "
                                              "told from the column names: value, label, score, rating...).")
                     ] = None,
    layout: Annotated[str | None, typer.Option(help="long: one row per (unit, coder, value); wide: one row per unit, "
                                               "a column per coder (default: told from the file).")] = None,
    coders: Annotated[str | None, typer.Option(help="Wide layout: comma-separated coder columns (default: all but "
                                               "--unit).")] = None,
    sep: Annotated[str | None, typer.Option(help="Text tables: the delimiter, one character or 'tab' (default: "
                                            "sniffed among comma, semicolon, tab and pipe).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    importer: ImporterArgs = _NO_IMPORTER,
) -> None:
    """May a model replace the human annotators? The alternative annotator test (Calderon, Reichart & Dror 2025).

    Examples: accord alt-test labels.csv --models gpt-4o --epsilon 0.15;
    accord alt-test export.json --from label-studio --field sentiment --models "llm-*" --json
    """
    import warnings

    from accord._shared.errors import AccordWarning
    from accord.models_vs_humans import alt_test, panel_agreement, panel_departures
    from accord.models_vs_humans._alt_test import _check

    _check(epsilon, alpha, scoring, min_items, min_humans)
    if max_rows < 0:
        raise AccordError(f"--max-rows must be >= 0; got {max_rows}")
    data, imported = load_annotations(file, importer, unit=unit, coder=coder, value=value, layout=layout,
                                      coders=coders, json_out=json_out, sep=sep)
    read_as = getattr(data, "read_as", None) if imported is None else None  # what accord.read read
    result = alt_test(data, models=models, epsilon=epsilon, alpha=alpha, scoring=scoring, min_items=min_items,
                      min_humans=min_humans)
    dist = distance or _PANEL_DISTANCE.get(result.scoring, "nominal")
    if dist == "jaccard" and not data.is_set_valued:
        dist = "nominal"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        agreement = panel_agreement(data, models=models, distance=dist)
    notes = list(dict.fromkeys(said(w.message) for w in caught if issubclass(w.category, AccordWarning)))
    departures = panel_departures(data, models=models, max_dissent=max_dissent)
    sim = None
    if guidance:
        from accord.models_vs_humans import alt_test_guidance

        if result.scoring != "accuracy":
            raise AccordError(f"--guidance simulates categorical labels (the paper's appendix C); this test scores "
                              f"with {result.scoring}")
        try:
            sizes = [int(x) for x in sim_sizes.split(",") if x.strip()]
        except ValueError:
            raise AccordError(f"--sim-sizes must be comma-separated numbers of items; got {sim_sizes!r}") from None
        sim = alt_test_guidance(n_categories=max(len(data.values), 2), n_humans=max(len(result.humans), 2),
                                noise_humans=noise_humans, noise_model=noise_model, alpha=alpha, rng=seed,
                                sizes=sizes, n_datasets=sim_datasets, n_boots=sim_draws,
                                epsilons=sorted({0.0, 0.05, 0.1, 0.15, 0.2, float(epsilon)}),
                                pool_items=max(500, *sizes), pool_humans=max(6, 2 * len(result.humans)))
    if json_out:
        out: dict[str, Any] = {"alt_test": result.to_dict(), "panel_agreement": agreement.to_frame().to_dict("records"),
                               "panel_departures": departures.to_dict(), "notes": notes}
        if sim is not None:
            out["guidance"] = sim.to_dict()
        if imported is not None:
            out["import"] = imported.to_dict()
        elif read_as is not None:
            out["read_as"] = read_as.to_dict()
        print_json(out)
        return
    if read_as is not None:
        echo(f"accord: read {file} as {read_as}", err=True)
    _print(file, result, agreement, departures, notes, max_rows)
    if sim is not None:
        _print_guidance(sim)


def _print(file: Path, result: Any, agreement: Any, departures: Any, notes: list[str], max_rows: int) -> None:
    from accord.models_vs_humans._guidance import EPSILON_RULES, ITEMS_ADVICE

    eps = f"epsilon {result.epsilon:g}, alpha {result.alpha:g}"
    summary = Table(title=f"Alternative annotator test in {file.name} ({len(result.humans)} humans, "
                    f"{result.n_units} items; scoring {result.scoring}, {eps})")
    for col in ("model", "items", "humans tested", "wins", "omega", "rho", "verdict"):
        summary.add_column(col, justify="left" if col in ("model", "verdict") else "right")
    for t in result.tests:
        verdict = "undefined" if t.passes is None else "passes" if t.passes else "fails"
        summary.add_row(str(t.model), str(t.n_items), str(t.n_humans), str(t.n_wins), _fmt(t.omega), _fmt(t.rho),
                        verdict)
    console.print(summary)
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
        table = Table(title=f"{t.model} against each human left out")
        for col in ("human", "items", "rho model", "rho human", "t", "p", "p (BY)", "model wins"):
            table.add_column(col, justify="left" if col == "human" else "right")
        for c in t.comparisons:
            table.add_row(str(c.human), str(c.n_items), _fmt(c.rho_model), _fmt(c.rho_human), _fmt(c.t_statistic, 3),
                          _p(c.p_value), _p(c.p_adjusted), "yes" if c.model_wins else "no")
        console.print(table)
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
    a = Table(title=f"Agreement among the humans, and with each model added (alpha, {agreement.distance})")
    for col in ("coders", "alpha", "change", "pairable units"):
        a.add_column(col, justify="left" if col == "coders" else "right")
    for row in agreement.to_frame().itertuples(index=False):
        a.add_row(str(row.coders), _fmt(row.alpha), _fmt(row.change), str(row.n_pairable_units))
    console.print(a)
    for msg in notes:
        console.print(f"[yellow]note:[/yellow] {escape(msg)}", markup=True)
    frame = departures.to_frame()
    panel = "unanimous" if departures.max_dissent == 0 else f"unanimous or all but {departures.max_dissent}"
    for model in departures.models:
        n, k = departures.n_panel_items[model], departures.n_departures[model]
        share = f" ({k / n:.1%})" if n else ""
        console.print(f"{model} departs from a {panel} human panel on {k} of {n} items{share}")
    if len(frame) and max_rows:
        d = Table(title=f"Items to adjudicate: the model departs from the panel (first {min(max_rows, len(frame))} "
                        f"of {len(frame)})")
        for col in ("model", "unit", "model value", "panel value", "panel"):
            d.add_column(col)
        for row in frame.head(max_rows).itertuples(index=False):
            d.add_row(str(row.model), str(row.unit), str(row.model_value), str(row.panel_value),
                      f"{row.n_agree} of {row.n_panel}")
        console.print(d)


def _print_guidance(sim: Any) -> None:
    frame = sim.to_frame()
    t = Table(title=f"Simulated winning rate omega by items and epsilon ({sim.n_categories} labels, {sim.n_humans} "
              f"humans, noise humans {sim.noise_humans:g}, model {sim.noise_model:g}; {sim.n_datasets} datasets x "
              f"{sim.n_boots} draws, seed {sim.seed})")
    t.add_column("items", justify="right")
    for e in sim.epsilons:
        t.add_column(f"omega, eps {e:g}", justify="right")
    for col in ("rho", "humans' alpha"):
        t.add_column(col, justify="right")
    for row in frame.to_dict("records"):
        t.add_row(str(int(row["size"])), *[_fmt(row[f"omega_{e:g}"], 2) for e in sim.epsilons], _fmt(row["rho"], 3),
                  _fmt(row["alpha_humans"], 3))
    console.print(t)
    needed = ", ".join(f"eps {e:g}: {'never' if n is None else f'{n} items'}" for e, n in sim.items_needed().items())
    console.print(f"mean omega reaches 0.5 from: {needed}")


def register(app: typer.Typer) -> None:
    """Add ``alt-test`` to *app*."""
    app.command("alt-test")(cli_errors(alt_test_command))
