"""``accord report``: one self-contained HTML page of reliability, for any kind of annotation.

The options are those of ``accord agree``, ``coref``, ``multilabel``, ``pyramid score`` and
``gold``; the kind is told by ``--kind`` or guessed from the files.  The input is read and
refused (exit status 2, one line) before anything is written; the page is written
atomically and replaces an existing file only with ``--force``.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Annotated, Any

import typer

from accord._shared.errors import AccordError, choice_error, no_such_file, plural
from accord._shared.output import check_output
from accord.cli._common import cli_errors, echo, print_json
from accord.cli._importing import ImporterArgs, importer_options
from accord.cli._options import OrderOption, ordered_distance

__all__ = ["KIND_NAMES", "detect_kind", "register"]

# CLI name -> report kind
KIND_NAMES = {"agree": "agreement", "coref": "coreference", "multilabel": "multilabel", "pyramid": "pyramid",
              "gold": "gold", "spans": "spans", "models": "models", "relations": "relations"}
_COREF_SUFFIXES = (".conll", ".conllu", ".gold_conll", ".auto_conll", ".v4_gold_conll", ".v4_auto_conll",
                   ".v9_gold_conll", ".ann")


def _header(path: Path) -> list[str]:
    if path.suffix.lower() not in (".csv", ".tsv", ".tab", ".txt"):
        return []
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            first = fh.readline()
    except (OSError, UnicodeDecodeError):
        return []
    delim = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    return [c.strip().lower() for c in next(csv.reader([first], delimiter=delim), [])]


#: the tables accord.read reads in a folder (a folder of them is one table)
_TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".jsonl", ".jsonlines", ".parquet", ".pq", ".xlsx", ".ods")


def _folder_table(folder: Path) -> Path | None:
    """The first table of a folder of tables (no CoNLL, CorefUD or brat file, no JSON lines of coreference
    clusters), which the agreement report reads as one table; None for a folder of coreference files."""
    try:
        files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    except OSError:
        return None
    if any(f.name.lower().endswith(_COREF_SUFFIXES) or f.suffix.lower() == ".conllu" for f in files):
        return None
    tables = [f for f in files if f.suffix.lower() in _TABLE_SUFFIXES]
    if not tables:
        return None
    first = tables[0]
    if first.suffix.lower() in (".jsonl", ".jsonlines"):
        try:
            with open(first, encoding="utf-8-sig") as fh:
                line = next((x for x in fh if x.strip()), "")
        except (OSError, UnicodeDecodeError):
            return None
        if '"clusters"' in line:  # e2e-coref JSON lines
            return None
    return first


def detect_kind(inputs: list[Path]) -> str:
    """The CLI kind of *inputs*: pyramid (.pyr/.pan), coref (CoNLL, brat, a folder of them, a
    document/mention/chain table), multilabel (a labels column, or label + rank), else agree (a table, or a
    folder of tables read as one)."""
    first = inputs[0]
    sfx = first.suffix.lower()
    if sfx in (".pyr", ".pan"):
        return "pyramid"
    if first.is_dir():
        table = _folder_table(first)
        if table is None:
            return "coref"
        first = table  # a folder of tables: its first table's header tells coreference tables from ratings
    elif sfx in _COREF_SUFFIXES:
        return "coref"
    cols = set(_header(first))
    if {"document", "mention", "chain"} <= cols:
        return "coref"
    if "labels" in cols or {"label", "rank"} <= cols:
        return "multilabel"
    return "agree"


_NO_IMPORTER = ImporterArgs()


@importer_options
def _report(
    inputs: Annotated[list[Path], typer.Argument(help="The annotation file(s): as for agree, coref (one per coder), "
                                                 "multilabel, gold, or a pyramid then its peer annotations.")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The HTML file to write (default: the first "
                                                "input's name with .html, in the current folder).")] = None,
    kind: Annotated[str, typer.Option(help="auto, agree, coref, multilabel, pyramid, gold, spans, relations (an "
                                      "export's relations and events, with --from) or models (the "
                                      "humans-and-models page; auto with --models).")] = "auto",
    force: Annotated[bool, typer.Option("--force", help="Replace an existing output file (never an input).")] = False,
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help="The page's Export CSV writes every cell as it is: no "
                                          "leading ' before a cell beginning with =, +, -, @, a tab or a line break "
                                          "(accord's guard against spreadsheet formulas).")] = False,
    figures: Annotated[Path | None, typer.Option(help="Also write each chart as SVG, PNG and PDF here.")] = None,
    title: Annotated[str | None, typer.Option(help="Title of the page.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Also print the headline numbers as JSON.")] = False,
    max_rows: Annotated[int, typer.Option(help="Most rows of the adjudication list in the page.")] = 2000,
    # agree
    unit: Annotated[str | None, typer.Option(help="agree/gold: column of the unit (agree: told from the column "
                                             "names when not given; gold: default unit).")] = None,
    coder: Annotated[str | None, typer.Option(help="agree/gold: column of the coder (agree: told from the column "
                                              "names; gold: default coder).")] = None,
    value: Annotated[str | None, typer.Option(help="agree/gold: column of the value (agree: told from the column "
                                              "names; gold: default value).")] = None,
    layout: Annotated[str | None, typer.Option(help="agree: long, wide or counts (default: told from the file).")]
    = None,
    table_sep: Annotated[str | None, typer.Option("--table-sep", help="agree: the delimiter of a text table, one "
                                                  "character or 'tab' (default: sniffed).")] = None,
    coders: Annotated[str | None, typer.Option(help="agree (wide): coder columns; coref: coder names, "
                                               "comma-separated.")] = None,
    distance: Annotated[str | None, typer.Option(help="Distance (agree: nominal; coref: set-relation).")] = None,
    coefficient: Annotated[str, typer.Option(help="agree: 'all' or comma-separated coefficient names (those of "
                                             "agree, or the names people use: krippendorff, cohen-kappa...).")] = "all",
    order: OrderOption = None,
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples for the intervals (0: none).")] = 1000,
    seed: Annotated[int | None, typer.Option(help="Seed of the bootstrap.")] = None,
    confidence: Annotated[float, typer.Option(help="Confidence level of the intervals and the noise bound.")] = 0.95,
    # coref
    fmt: Annotated[str, typer.Option("--format", help="coref: auto, conll, brat, jsonl, csv, corefud; "
                                     "multilabel: auto, compact, ranked.")] = "auto",
    key: Annotated[Path | None, typer.Option(help="coref: a key (gold) annotation for MUC, B3, CEAF, BLANC, LEA.")]
    = None,
    missing_mentions: Annotated[str, typer.Option(help="coref: singleton, missing or error.")] = "singleton",
    align: Annotated[str, typer.Option(help="coref: tokens (the files must hold the same tokens) or words (align "
                                       "them by their words, the differences said).")] = "tokens",
    # multilabel
    p: Annotated[float | None, typer.Option("--p", help="multilabel: weight of the primary label (0.6); gold: chance "
                                            "agreement on hard items (estimated).")] = None,
    rule: Annotated[str, typer.Option(help="multilabel: pair, geometric or primary-rest.")] = "pair",
    tolerance: Annotated[float, typer.Option(help="multilabel: tolerance of a nearly constant item.")] = 0.1,
    high: Annotated[float, typer.Option(help="multilabel: smallest score of a constant-high item.")] = 0.6,
    item: Annotated[str, typer.Option(help="multilabel: column of the item.")] = "item",
    annotator: Annotated[str, typer.Option(help="multilabel: column of the annotator.")] = "annotator",
    sep: Annotated[str, typer.Option(help="multilabel: separator inside a labels cell.")] = ",",
    # pyramid
    convention: Annotated[str, typer.Option(help="pyramid: scoring convention.")] = "paper",
    start_regex: Annotated[str | None, typer.Option("--start-regex", help="pyramid: regex of each model's start.")]
    = None,
    # spans
    texts: Annotated[Path | None, typer.Option(help="spans: document texts (a folder of .txt, or CSV/JSONL).")]
    = None,
    match: Annotated[str, typer.Option(help="spans: exact or overlap.")] = "exact",
    tokens: Annotated[str, typer.Option(help="spans: whitespace or export tokens.")] = "whitespace",
    gamma: Annotated[bool, typer.Option("--gamma", help="spans: also gamma, with the best alignment of each "
                                        "document drawn (seeded by --seed).")] = False,
    gamma_alignment: Annotated[str, typer.Option(help="spans: gamma's alignments, exact, windowed or auto.")] = (
        "auto"
    ),
    # gold
    target_gamma: Annotated[float, typer.Option("--target-gamma", help="gold: noise target.")] = 0.05,
    drop_incomplete: Annotated[bool, typer.Option("--drop-incomplete", help="gold: leave out incomplete items.")]
    = False,
    # models
    models: Annotated[str | None, typer.Option("--models", help="models: the coders that are models (comma-"
                                               "separated names or patterns); gives the humans-and-models page.")]
    = None,
    epsilon: Annotated[float, typer.Option(help="models: the model's cost-benefit advantage epsilon.")] = 0.2,
    alpha: Annotated[float, typer.Option(help="models: false discovery rate across the humans.")] = 0.05,
    scoring: Annotated[str, typer.Option(help="models: auto, accuracy, neg_rmse, jaccard or rank.")] = "auto",
    min_items: Annotated[int, typer.Option(help="models: least items per human tested.")] = 30,
    importer: ImporterArgs = _NO_IMPORTER,
) -> None:
    """One HTML page of reliability to read, share and act on (works offline, prints to PDF).

    Examples: accord report labels.csv -o report.html --distance ordinal --seed 1;
    accord report ann1.conll ann2.conll --key gold.conll -o coref.html
    """
    from accord._shared.progress import Progress
    from accord.reporting._agreement import check_report_options

    if kind != "auto" and kind not in KIND_NAMES:
        raise AccordError(f"--kind must be auto or one of {', '.join(KIND_NAMES)}; got {kind!r}")
    if models is not None and kind not in ("auto", "models"):
        raise AccordError(f"--models gives the humans-and-models page; not with --kind {kind}")
    if kind == "models" and models is None:
        raise AccordError("--kind models needs --models (the coders that are models)")
    if models is not None:
        kind = "models"
    imported = None
    tool, field = importer.tool, importer.field
    if _from_export(inputs, kind, tool):
        from accord.cli._importing import load_export

        fits = {"spans": "spans", "agree": "categorical", "models": "categorical"}.get(kind)
        imported = load_export(inputs[0], importer, plain_fallback=tool is None and kind != "spans", fits=fits)
    passed = [f for f in importer.given() if f != "--field"]
    if passed and imported is None:
        raise AccordError(f"{' and '.join(passed)} {'pass' if len(passed) > 1 else 'passes'} options to an "
                          "annotation tool's importer (an export, or --from)")
    if imported is not None:
        name = "spans" if imported.kind == "spans" else "models" if kind == "models" else "agree"
        if kind not in ("auto", name):
            from accord.cli._importing import describe_field

            raise AccordError(f"--kind {kind}: this {imported.tool} export holds {describe_field(imported)}, which "
                              f"get a {name} report")
        if name == "spans" and texts is not None:
            from accord.spans._readers import export_spans, read_texts

            imported = export_spans(imported, inputs[0], read_texts(texts))
        if name == "agree" and (distance or order or imported.default_distance != "nominal"):
            # text labels under an ordered distance need --order: refused before anything is said (nominal by
            # default stays None: the page says when the values look like a scale)
            data = imported.annotations
            distance = ordered_distance(distance or imported.default_distance, order, data.values,
                                        source=data.source or str(inputs[0]), set_valued=data.is_set_valued)
        if not json_out:
            echo(imported.report.summary(cli=True), err=True)
    else:
        name = detect_kind(inputs) if kind == "auto" else kind
    if name == "models":
        from accord.models_vs_humans._alt_test import _check

        _check(epsilon, alpha, scoring, min_items, 3)
    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    if gamma and name != "spans":
        raise AccordError(f"--gamma is for span reports; this is a {name} report")
    if name == "spans" and gamma_alignment not in ("exact", "windowed", "auto"):
        raise choice_error("gamma_alignment", gamma_alignment, ("exact", "windowed", "auto"))
    if order is not None and name != "agree":
        raise AccordError(f"--order gives the order of the labels of an agree report (ordinal, interval or ratio "
                          f"distance); this is a {name} report")
    if layout is not None and layout not in ("long", "wide", "counts"):
        raise choice_error("layout", layout, ("long", "wide", "counts"))
    all_inputs = [*inputs, *([key] if key else []), *([texts] if texts else [])]
    for path in all_inputs:
        if not path.exists():
            raise no_such_file(path)
    output = check_output(output, force=force, inputs=all_inputs) if output is not None else _default_output(
        inputs[0], force=force, inputs=all_inputs)
    if figures is not None and figures.exists() and not figures.is_dir():
        raise AccordError(f"--figures {figures}: exists and is not a folder")
    common: dict[str, Any] = dict(bootstrap=bootstrap, seed=seed, confidence=confidence, max_rows=max_rows)
    with Progress(enabled=not quiet) as prog:
        if imported is not None:
            obj: Any = imported
            options: dict[str, Any] = ({"match": match, "tokens": tokens} if name == "spans" else
                                       {"distance": distance, "coefficients": coefficient})
            if name == "models":
                options = {"distance": distance}
        else:
            obj, options = _load(name, inputs, key=key, fmt=fmt, unit=unit, coder=coder, value=value,
                                 layout=layout, coders=coders, distance=distance, coefficient=coefficient,
                                 missing_mentions=missing_mentions, align=align, p=p, rule=rule,
                                 tolerance=tolerance, high=high,
                                 item=item, annotator=annotator, sep=sep, convention=convention,
                                 start_regex=start_regex, target_gamma=target_gamma,
                                 drop_incomplete=drop_incomplete, tool=tool, field=field, texts=texts, match=match,
                                 tokens=tokens, table_sep=table_sep)
            if name == "models":
                options = {"distance": options["distance"] if distance else None}
            if name == "agree" and (options["distance"] is not None or order is not None):
                options["distance"] = ordered_distance(options["distance"] or "nominal", order, obj.values,
                                                       source=obj.source or str(inputs[0]),
                                                       set_valued=obj.is_set_valued)
        from accord.reporting import build_report

        if name == "models":
            options.update(models=models, epsilon=epsilon, alpha=alpha, scoring=scoring, min_items=min_items)
        if name == "spans":
            options.update(gamma=gamma, gamma_alignment=gamma_alignment)

        rep = build_report(obj, kind=KIND_NAMES[name], title=title, progress=prog, **common, **options)
        if figures is not None:
            rep.check_figures(figures, force=force, inputs=tuple(all_inputs))
        with prog.step("writing the page"):
            rep.save(output, force=force, inputs=tuple(all_inputs), raw_csv=raw_csv)
        written = []
        if figures is not None:
            with prog.step(f"writing {plural(len(rep.charts) * 3, 'figure')}"):
                written = rep.write_figures(figures, force=force, inputs=tuple(all_inputs))
    read_as = getattr(obj, "read_as", None)
    if read_as is not None and not json_out:
        echo(f"accord: read {inputs[0]} as {read_as}", err=True)
    if json_out:
        print_json({"output": str(output), "kind": rep.kind, "headline": rep.summary,
                    "figures": [str(w) for w in written],
                    **({"read_as": read_as.to_dict()} if read_as is not None else {})})
        return
    echo(f"wrote {output}")
    if written:
        echo(f"wrote {plural(len(written), 'figure')} to {figures}")


def default_output(first: Path) -> Path:
    """Where ``accord report`` writes without ``-o``: the first input's name with ``.html``, in the current folder.

    Examples
    --------
    >>> default_output(Path("data/labels.csv")), default_output(Path("exports/batch.csv.gz"))
    (PosixPath('labels.html'), PosixPath('batch.html'))
    """
    name = first.name or first.resolve().name
    stem = Path(name).stem if not first.is_dir() else name
    while Path(stem).suffix.lower() in (".csv", ".tsv", ".tab", ".txt", ".json", ".jsonl", ".ndjson", ".parquet",
                                         ".conll", ".xlsx", ".ods"):
        stem = Path(stem).stem
    return Path(f"{stem or 'report'}.html")


def _default_output(first: Path, *, force: bool, inputs: list[Path]) -> Path:
    """:func:`default_output`, refused (naming ``-o`` and ``--force``) inside an input folder or over a file."""
    out = default_output(first)
    named = first.name or first.resolve().name
    try:
        check_output(out, force=True, inputs=inputs)  # an input, inside an input folder: never, even with --force
    except AccordError as exc:
        raise AccordError(f"{exc.for_cli()} (the default output, named after {named}); pass "
                          "-o PATH to write elsewhere") from None
    if (out.exists() or out.is_symlink()) and not force:
        raise AccordError(f"{out} exists (the default output, named after {named}): pass --force to "
                          "replace it, or -o PATH to write elsewhere")
    return out


def _from_export(inputs: list[Path], kind: str, tool: str | None) -> bool:
    """Whether INPUT is read by an annotation tool's importer: with --from, or, with --kind auto or agree, a file
    that is not a plain table (JSON, JSON lines or a zip a tool wrote, or a table with a tool's own header),
    or, with --kind spans, an input that is not the span table (as accord spans reads it)."""
    if len(inputs) != 1 or kind not in ("auto", "agree", "spans", "models"):
        return False
    if tool is not None:
        return True
    if kind == "spans":
        from accord.spans._readers import is_span_table

        return not is_span_table(inputs[0])
    return inputs[0].is_file() and (kind in ("agree", "models") or detect_kind(inputs) == "agree")


def _load(name: str, inputs: list[Path], **o: Any) -> tuple[Any, dict[str, Any]]:
    """Read the input of the kind, refusing bad input as the kind's own command does."""
    if name in ("agree", "models"):
        if len(inputs) != 1:
            raise AccordError(f"agree reports read one file; got {len(inputs)}")
        from accord.data._read import read

        cols = [c.strip() for c in o["coders"].split(",")] if o["coders"] else None
        data = read(inputs[0], unit=o["unit"], coder=o["coder"], value=o["value"], layout=o["layout"],
                    coders=cols, sep=o["table_sep"])
        # no --distance: None, nominal by default (the page says when the values look like a scale)
        return data, {"distance": o["distance"], "coefficients": o["coefficient"]}
    if name == "coref":
        from accord.coref._readers import read_coref

        names = [c.strip() for c in o["coders"].split(",")] if o["coders"] else None
        from accord.cli._common import warnings_said

        data = warnings_said(read_coref, inputs, format=o["fmt"], coders=names,
                             missing_mentions=o["missing_mentions"], align=o["align"])
        key = warnings_said(read_coref, [o["key"]], format=o["fmt"]) if o["key"] is not None else None
        if key is not None:  # the coders' mentions on the key's tokens (checked, or aligned by the words)
            from accord.coref._tokens import placed_on

            data = warnings_said(placed_on, key, data, align=o["align"])
        return data, {"key": key, "set_distance": o["distance"] or "set-relation"}
    if name == "multilabel":
        if len(inputs) != 1:
            raise AccordError(f"multilabel reports read one file; got {len(inputs)}")
        from accord.multilabel import read_multilabel

        data = read_multilabel(inputs[0], format=o["fmt"], sep=o["sep"], item=o["item"], annotator=o["annotator"])
        return data, {"p": 0.6 if o["p"] is None else o["p"], "rule": o["rule"], "tolerance": o["tolerance"],
                      "high": o["high"]}
    if name == "gold":
        if len(inputs) != 1:
            raise AccordError(f"gold reports read one file; got {len(inputs)}")
        from accord.noise._gold import read_long_table

        df = read_long_table(inputs[0], unit=o["unit"] or "unit", coder=o["coder"] or "coder",
                             value=o["value"] or "value")
        return df, {"p": o["p"], "target_gamma": o["target_gamma"],
                    "incomplete": "drop" if o["drop_incomplete"] else "error", "source": str(inputs[0])}
    if name == "pyramid":
        from accord.cli._pyramid import _load_peer, _load_pyramid

        if len(inputs) < 2:
            raise AccordError("pyramid reports read the pyramid then at least one peer annotation; got "
                              f"{plural(len(inputs), 'file')}")
        pyr = _load_pyramid(inputs[0], o["start_regex"])
        peers = [_load_peer(f, o["start_regex"]) for f in inputs[1:]]
        return (pyr, peers), {"convention": o["convention"]}
    if name == "spans":
        from accord.reporting._spans import load_spans

        return load_spans(inputs, **o)
    if name == "relations":
        from accord.reporting._relations import load_relations

        return load_relations(inputs, **o)
    raise AccordError(f"no report for kind {name!r}")  # pragma: no cover


def register(app: typer.Typer) -> None:
    """Add ``report`` to *app*."""
    app.command("report")(cli_errors(_report))
