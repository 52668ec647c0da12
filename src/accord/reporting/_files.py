"""The report of files, as ``accord report`` writes it: which kind, how to read the inputs, where to write.

:func:`report_files` tells the kind of report from the files (or takes it), reads them as the kind's own
command does (an annotation tool's export through its importer), refuses bad input and options before
anything is written, builds the page (:func:`accord.reporting.build_report`) and writes it atomically, with
its figures; the command line reads its options into this one call and says what was written.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, choice_error, no_such_file, plural
from accord._shared.output import check_output

__all__ = ["KIND_NAMES", "ReportRun", "default_output", "detect_kind", "report_files"]

#: CLI name -> report kind
KIND_NAMES = {"agree": "agreement", "coref": "coreference", "multilabel": "multilabel", "pyramid": "pyramid",
              "gold": "gold", "spans": "spans", "models": "models", "relations": "relations",
              "judge": "judge"}
_COREF_SUFFIXES = (".conll", ".conllu", ".gold_conll", ".auto_conll", ".v4_gold_conll", ".v4_auto_conll",
                   ".v9_gold_conll", ".ann")
#: the tables accord.read reads in a folder (a folder of them is one table)
_TABLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".jsonl", ".jsonlines", ".parquet", ".pq", ".xlsx", ".ods")


@dataclass(frozen=True)
class ReportRun:
    """What :func:`report_files` wrote: the report, its file, the figures, and what was read."""

    report: Any
    output: Path
    figures: list[Path] = field(default_factory=list)
    read_as: Any = None
    imported: Any = None
    warnings: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``accord report --json`` prints: the file, the kind, the headline numbers, the figures."""
        return {"output": str(self.output), "kind": self.report.kind, "headline": self.report.summary,
                "figures": [str(w) for w in self.figures],
                **({"read_as": self.read_as.to_dict()} if self.read_as is not None else {})}

#: the options of each kind's reading and page, with their defaults (None given for an option = its default)
OPTIONS: dict[str, Any] = {
    # agree (and gold: unit, coder, value)
    "unit": None, "coder": None, "value": None, "layout": None, "table_sep": None, "coders": None, "distance": None,
    "coefficient": "all", "order": None,
    # coref
    "fmt": "auto", "key": None, "missing_mentions": "singleton", "align": "tokens",
    # multilabel (and gold: p)
    "p": None, "rule": "pair", "tolerance": 0.1, "high": 0.6, "item": "item", "annotator": "annotator", "sep": ",",
    # pyramid
    "convention": "paper", "start_regex": None,
    # spans
    "texts": None, "match": "exact", "tokens": "whitespace", "gamma": False, "gamma_alignment": "auto",
    # gold
    "target_gamma": 0.05, "drop_incomplete": False,
    # models
    "models": None, "epsilon": 0.2, "alpha": 0.05, "scoring": "auto", "min_items": 30,
    # judge (and epsilon, alpha, min_items); None: judge_audit's own default
    "judges": None, "position": None, "verdict_refers_to": None, "positions": None, "run": None, "positive": None,
    "mcnemar": None, "pass_rate_interval": None, "power_tuned": False,
}
#: the bootstrap resamples of every page but the judge audit's (which takes judge_audit's own n_boot, as
#: ``accord judge`` does)
BOOTSTRAP = 1000
_TABLE = ("agree", "models", "judge")
_DRAWN = ("agree", "coref", "multilabel", "pyramid", "gold", "spans", "relations", "judge")
#: the kinds (CLI names) that take each option of some kinds only; one given to another kind is refused
KINDS_OF: dict[str, tuple[str, ...]] = {
    "unit": (*_TABLE, "gold"), "coder": (*_TABLE, "gold"), "value": (*_TABLE, "gold"), "layout": _TABLE,
    "table_sep": _TABLE, "coders": (*_TABLE, "coref"), "distance": (*_TABLE, "coref"), "coefficient": ("agree",),
    "order": ("agree",),
    "fmt": ("coref", "multilabel"), "key": ("coref",), "missing_mentions": ("coref",), "align": ("coref",),
    "p": ("multilabel", "gold"), **{k: ("multilabel",) for k in ("rule", "tolerance", "high", "item", "annotator",
                                                                  "sep")},
    "convention": ("pyramid",), "start_regex": ("pyramid",),
    "texts": ("spans", "relations"), "match": ("spans", "relations"), "tokens": ("spans",), "gamma": ("spans",),
    "gamma_alignment": ("spans",), "target_gamma": ("gold",), "drop_incomplete": ("gold",),
    "epsilon": ("models", "judge"), "alpha": ("models", "judge"), "min_items": ("models", "judge"),
    "scoring": ("models",),
    **{k: ("judge",) for k in ("position", "verdict_refers_to", "positions", "run", "positive", "mcnemar",
                               "pass_rate_interval", "power_tuned")},
    "bootstrap": _DRAWN, "seed": _DRAWN, "confidence": _DRAWN,
}
#: the options of a plain table that the spreadsheet importer reads too
_SPREADSHEET = ("layout", "unit", "coder", "coders")
#: the options as the command line spells them, where not --name-with-dashes
_FLAGS = {"fmt": "--format", "table_sep": "--table-sep", "p": "--p"}
#: how a message names the pages of a kind
_PAGES = {"models": ("the humans-and-models page (with models)", "the humans-and-models page (with --models)"),
          "judge": ("the judge audit (with judges)", "the judge audit (with --judges)")}


def report_files(
    inputs: list[Path],
    *,
    output: Path | None = None,
    kind: str = "auto",
    importer: Any = None,
    force: bool = False,
    figures: Path | None = None,
    raw_csv: bool = False,
    title: str | None = None,
    max_rows: int = 2000,
    bootstrap: int | None = None,
    seed: int | None = None,
    confidence: float | None = None,
    progress: bool = False,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> ReportRun:
    """Write the report of the files *inputs* as one HTML page (and its figures), as ``accord report`` does.

    Parameters
    ----------
    inputs : list of paths
        The annotation file(s): a table, coreference files (one per coder), a multi-label table, a gold
        table, spans (a table or a tool's export), or a pyramid then its peer annotations.
    output : path, optional
        The page (default :func:`default_output` of the first input, in the current folder).
    kind : str
        ``auto`` (told from the files, :func:`detect_kind`; ``models`` with *models*, ``judge`` with *judges*)
        or a key of :data:`KIND_NAMES`.
    importer : ImportOptions, optional
        The importer of an annotation tool's export and its options.
    force, figures, raw_csv, title, max_rows, seed, progress
        As :func:`accord.reporting.report` takes them.
    bootstrap : int, optional
        Resamples of the intervals (0: none); default 1000 (:data:`BOOTSTRAP`), and for a judge audit the
        default of :func:`accord.models_vs_humans.judge_audit` (2000), as ``accord judge`` takes it.
    confidence : float, optional
        Level of the intervals (default 0.95).
    say : callable, optional
        Called with each line to tell the user while reading (a format guessed).
    **options
        Of the kind (:data:`OPTIONS`; None, or False for a switch, is the default).  An option given that the
        kind of page built does not take (:data:`KINDS_OF`; *bootstrap*, *seed* and *confidence* included) is
        refused, never ignored.  A judge-audit page (*judges*) reads the judgments as
        :func:`accord.models_vs_humans.judge_audit_file` does, with *bootstrap* as its ``n_boot``, *seed* as its
        ``rng``, *confidence* as its ``confidence_level`` and its own options (*position*, *mcnemar*,
        *pass_rate_interval*, *power_tuned*...).

    Returns
    -------
    ReportRun
    """
    from accord._shared.progress import Progress
    from accord.engines._fields import ALL_FIELDS
    from accord.importers._input import ImportOptions
    from accord.reporting._build import build

    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise AccordError(f"report_files takes no option {unknown[0]!r}; its options are {', '.join(OPTIONS)}")
    given = [k for k, v in {**options, "bootstrap": bootstrap, "seed": seed, "confidence": confidence}.items()
             if v is not None and v is not False]
    o = {**OPTIONS, **{k: v for k, v in options.items() if v is not None}}
    importer = importer or ImportOptions()
    by_field = importer.field == ALL_FIELDS
    name, imported = _by_field(inputs, kind, o) if by_field else _kind_and_import(inputs, kind, importer, o, say)
    # the importer that reads an export of values ("" for every field), whose table columns are not read
    export = "" if by_field else imported.tool if imported is not None and name in ("agree", "models") else None
    o.update(bootstrap=bootstrap, seed=seed, confidence=confidence)  # a judge audit's own: None, judge_audit's
    bootstrap = BOOTSTRAP if bootstrap is None else bootstrap
    confidence = 0.95 if confidence is None else confidence
    _check_options(name, o, given, export=export, bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    all_inputs = [*inputs, *([o["key"]] if o["key"] else []), *([o["texts"]] if o["texts"] else [])]
    for path in all_inputs:
        if not path.exists():
            raise no_such_file(path)
    output = check_output(output, force=force, inputs=all_inputs) if output is not None else _default_output(
        inputs[0], force=force, inputs=all_inputs)
    if figures is not None and figures.exists() and not figures.is_dir():
        raise AccordError(f"figures={str(figures)!r}: exists and is not a folder",
                          cli=f"--figures {figures}: exists and is not a folder")
    with Progress(enabled=progress) as prog:
        if by_field:  # one page of every field of the export
            from accord.reporting._fields import fields_report

            obj, said = None, []
            rep = fields_report(inputs[0], importer, title=title, say=say, progress=prog, bootstrap=bootstrap,
                                seed=seed, confidence=confidence, max_rows=max_rows, coefficients=o["coefficient"])
        else:
            obj, page, said = _read(name, inputs, imported, importer, o, say)
            rep = build(obj, kind=KIND_NAMES[name], title=title, progress=prog, bootstrap=bootstrap, seed=seed,
                        confidence=confidence, max_rows=max_rows, **page)
        if figures is not None:
            rep.check_figures(figures, force=force, inputs=tuple(all_inputs))
        with prog.step("writing the page"):
            rep.save(output, force=force, inputs=tuple(all_inputs), raw_csv=raw_csv)
        written = []
        if figures is not None:
            with prog.step(f"writing {plural(len(rep.charts) * 3, 'figure')}"):
                written = rep.write_figures(figures, force=force, inputs=tuple(all_inputs))
    return ReportRun(report=rep, output=output, figures=written, read_as=getattr(obj, "read_as", None),
                     imported=imported, warnings=tuple(said))


def _by_field(inputs: list[Path], kind: str, o: dict[str, Any]) -> tuple[str, None]:
    """``field='all'``: one export, an agree report, each field on its own default distance."""
    if kind not in ("auto", "agree") or o["models"] is not None or o["judges"] is not None:
        raise AccordError(f"field='all' writes an agree report of every field; not with kind={kind!r}, models or "
                          "judges", cli=f"--field all writes an agree report of every field; not with --kind {kind}, "
                          "--models or --judges")
    if len(inputs) != 1:
        raise AccordError(f"field='all' reads one export; got {plural(len(inputs), 'file')}",
                          cli=f"--field all reads one export; got {plural(len(inputs), 'file')}")
    fixed = [n for n in ("distance", "order") if o[n] is not None]
    if fixed:
        raise AccordError(f"field='all' measures each field with its own default distance: not with "
                          f"{', '.join(fixed)}",
                          cli=f"--field all measures each field with its own default distance: not with "
                          f"{', '.join('--' + n for n in fixed)}")
    return "agree", None


def _kind_and_import(inputs: list[Path], kind: str, importer: Any, o: dict[str, Any], say: Any) -> tuple[str, Any]:
    """The kind of report (a key of :data:`KIND_NAMES`) and the import of an export (None for other inputs)."""
    models, judges = o["models"], o["judges"]
    if kind != "auto" and kind not in KIND_NAMES:
        raise AccordError(f"kind must be auto or one of {', '.join(KIND_NAMES)}; got {kind!r}",
                          cli=f"--kind must be auto or one of {', '.join(KIND_NAMES)}; got {kind!r}")
    if judges is not None and models is not None:
        raise AccordError("judges gives the judge-audit page and models the humans-and-models page; pass one",
                          cli="--judges gives the judge-audit page and --models the humans-and-models page; pass one")
    if judges is not None and kind not in ("auto", "judge"):
        raise AccordError(f"judges gives the judge-audit page; not with kind={kind!r}",
                          cli=f"--judges gives the judge-audit page; not with --kind {kind}")
    if kind == "judge" and judges is None:
        raise AccordError("kind='judge' needs judges (the coders that are LLM judges)",
                          cli="--kind judge needs --judges (the coders that are LLM judges)")
    if judges is not None:  # the audit reads the file itself, an annotation tool's export through the importer
        return "judge", None
    if models is not None and kind not in ("auto", "models"):
        raise AccordError(f"models gives the humans-and-models page; not with kind={kind!r}",
                          cli=f"--models gives the humans-and-models page; not with --kind {kind}")
    if kind == "models" and models is None:
        raise AccordError("kind='models' needs models (the coders that are models)",
                          cli="--kind models needs --models (the coders that are models)")
    if models is not None:
        kind = "models"
    imported = None
    if _from_export(inputs, kind, importer.tool):
        from accord.importers._input import load_export

        fits = {"spans": "spans", "agree": "categorical", "models": "categorical"}.get(kind)
        # a spreadsheet's columns and layout, as accord agree passes them (other importers take none)
        sheet = {k: [c.strip() for c in o[k].split(",")] if k == "coders" else o[k] for k in _SPREADSHEET
                 if o[k] is not None}
        imported = load_export(inputs[0], importer, plain_fallback=importer.tool is None and kind != "spans",
                               spreadsheet_options=sheet,
                               fits=fits, say=say)
    passed = [f for f in importer.given() if f != "--field"]
    if passed and imported is None:
        verb = "pass" if len(passed) > 1 else "passes"
        raise AccordError(f"{' and '.join(passed)} {verb} options to an annotation tool's importer (an export, or "
                          "--from)")
    if imported is None:
        return (detect_kind(inputs) if kind == "auto" else kind), None
    name = "spans" if imported.kind == "spans" else "models" if kind == "models" else "agree"
    if kind not in ("auto", name):
        from accord.importers._input import describe_field

        raise AccordError(f"--kind {kind}: this {imported.tool} export holds {describe_field(imported)}, which get "
                          f"a {name} report")
    if name == "spans" and o["texts"] is not None:
        from accord.spans._readers import export_spans, read_texts

        imported = export_spans(imported, inputs[0], read_texts(o["texts"]))
    if name == "agree" and (o["distance"] or o["order"] or imported.default_distance != "nominal"):
        # text labels under an ordered distance need an order: refused before anything is said (nominal by
        # default stays None: the page says when the values look like a scale)
        from accord.distances._ordered import ordered_distance

        data = imported.annotations
        o["distance"] = ordered_distance(o["distance"] or imported.default_distance, o["order"], data.values,
                                         source=data.source or str(inputs[0]), set_valued=data.is_set_valued)
    return name, imported


def _check_options(name: str, o: dict[str, Any], given: list[str], *, export: str | None, **common: Any) -> None:
    """The options every report shares, and those that only some kinds take, refused when *given* with another
    kind (or, for a plain table's columns, with an export)."""
    from accord.reporting._agreement import check_report_options

    _refuse_other_kinds(name, given, export=export)
    if name == "models":
        from accord.models_vs_humans._alt_test import _check

        _check(o["epsilon"], o["alpha"], o["scoring"], o["min_items"], 3)
    check_report_options(**common)
    if name == "judge" and o["bootstrap"] is not None and common["bootstrap"] < 1:
        raise AccordError(f"bootstrap must be a positive integer for a judge audit (the draws of alpha's interval "
                          f"across runs and among the humans); got {common['bootstrap']}",
                          cli=f"--bootstrap must be a positive integer for a judge audit (the draws of alpha's "
                          f"interval across runs and among the humans); got {common['bootstrap']}")
    if name == "spans" and o["gamma_alignment"] not in ("exact", "windowed", "auto"):
        raise choice_error("gamma_alignment", o["gamma_alignment"], ("exact", "windowed", "auto"))
    if o["layout"] is not None and o["layout"] not in ("long", "wide", "counts"):
        raise choice_error("layout", o["layout"], ("long", "wide", "counts"))


def _flag(key: str) -> str:
    return _FLAGS.get(key, "--" + key.replace("_", "-"))


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _pages(kinds: tuple[str, ...], cli: bool) -> str:
    """The pages that take an option, as a message names them."""
    if kinds == _DRAWN:
        return f"every page but {_PAGES['models'][cli]}"
    plain = [k for k in kinds if k not in _PAGES]
    return _and([*([f"{_and(plain)} reports"] if plain else []), *(_PAGES[k][cli] for k in kinds if k in _PAGES)])


def _refuse_other_kinds(name: str, given: list[str], *, export: str | None) -> None:
    """Refuse each option *given* that a page of kind *name* does not take, naming the option, the kinds that
    take it and the kind built: one line, in the words of Python and of the command line.  The columns of a
    plain table are refused for an export read by the importer *export* (a spreadsheet's importer reads
    *layout*, *unit*, *coder* and *coders*)."""
    this = f"this is {'an' if name[0] in 'aeiou' else 'a'} {name} report"
    read = _SPREADSHEET if export == "spreadsheet" else ()
    table = [k for k in ("unit", "coder", "value", "layout", "table_sep", "coders") if k in given and k not in read]
    if export is not None and table:
        verb = "names" if len(table) == 1 else "name"
        raise AccordError(f"{_and(table)} {verb} what to read in a plain table; {this} of an annotation tool's "
                          "export, read by its importer (tool, field)",
                          cli=f"{_and([_flag(k) for k in table])} {verb} what to read in a plain table; {this} of an "
                          "annotation tool's export, read by its importer (--from, --field)")
    groups: dict[tuple[str, ...], list[str]] = {}
    for key, kinds in KINDS_OF.items():
        if key in given and name not in kinds:
            groups.setdefault(kinds, []).append(key)
    if not groups:
        return

    def words(cli: bool) -> str:
        parts = []
        for i, (kinds, keys) in enumerate(groups.items()):
            names = _and([_flag(k) if cli else k for k in keys])
            verb = "" if i else "is an option " if len(keys) == 1 else "are options "
            parts.append(f"{names} {verb}of {_pages(kinds, cli)}")
        return f"{_and(parts)}; {this}"

    raise AccordError(words(False), cli=words(True))


def _read(name: str, inputs: list[Path], imported: Any, importer: Any, o: dict[str, Any], say: Any = None
          ) -> tuple[Any, dict[str, Any], list[Any]]:
    """What the page is built from, the page's options of the kind, and the warnings reading raised."""
    said: list[Any] = []
    if name == "judge":
        return _load_judge(inputs, importer, o, say), {}, said
    if imported is not None:
        if name == "spans":
            page: dict[str, Any] = {"match": o["match"], "tokens": o["tokens"]}
        elif name == "models":
            page = {"distance": o["distance"]}
        else:
            page = {"distance": o["distance"], "coefficients": o["coefficient"]}
        obj: Any = imported
    else:
        obj, page = _load(name, inputs, importer, o, said)
        if name == "models":
            page = {"distance": page["distance"] if o["distance"] else None}
        if name == "agree" and (page["distance"] is not None or o["order"] is not None):
            from accord.distances._ordered import ordered_distance

            page["distance"] = ordered_distance(page["distance"] or "nominal", o["order"], obj.values,
                                                source=obj.source or str(inputs[0]), set_valued=obj.is_set_valued)
    if name == "models":
        page.update(models=o["models"], epsilon=o["epsilon"], alpha=o["alpha"], scoring=o["scoring"],
                    min_items=o["min_items"])
    if name == "spans":
        page.update(gamma=o["gamma"], gamma_alignment=o["gamma_alignment"])
    return obj, page, said


def _load(name: str, inputs: list[Path], importer: Any, o: dict[str, Any], said: list[Any]
          ) -> tuple[Any, dict[str, Any]]:
    """Read the input of the kind, refusing bad input as the kind's own command does."""
    if name in ("agree", "models"):
        if len(inputs) != 1:
            raise AccordError(f"agree reports read one file; got {len(inputs)}")
        from accord.data._read import read

        cols = [c.strip() for c in o["coders"].split(",")] if o["coders"] else None
        data = read(inputs[0], unit=o["unit"], coder=o["coder"], value=o["value"], layout=o["layout"],
                    coders=cols, sep=o["table_sep"])
        # no distance: None, nominal by default (the page says when the values look like a scale)
        return data, {"distance": o["distance"], "coefficients": o["coefficient"]}
    if name == "coref":
        return _load_coref(inputs, o, said)
    if name == "multilabel":
        if len(inputs) != 1:
            raise AccordError(f"multilabel reports read one file; got {len(inputs)}")
        from accord.multilabel._readers import read_multilabel

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
        from accord.pyramid._files import load_peer, load_pyramid

        if len(inputs) < 2:
            raise AccordError("pyramid reports read the pyramid then at least one peer annotation; got "
                              f"{plural(len(inputs), 'file')}")
        pyr = load_pyramid(inputs[0], o["start_regex"])
        peers = [load_peer(f, o["start_regex"]) for f in inputs[1:]]
        return (pyr, peers), {"convention": o["convention"]}
    if name == "spans":
        from accord.reporting._spans import load_spans

        return load_spans(inputs, tool=importer.tool, field=importer.field, **o)
    if name == "relations":
        from accord.reporting._relations import load_relations

        return load_relations(inputs, tool=importer.tool, field=importer.field, texts=o["texts"], match=o["match"])
    raise AccordError(f"no report for kind {name!r}")  # pragma: no cover


def _load_judge(inputs: list[Path], importer: Any, o: dict[str, Any], say: Any) -> Any:
    """The judge audit of the one input, read as ``accord judge`` reads it
    (:func:`accord.models_vs_humans.judge_audit_file`)."""
    if len(inputs) != 1:
        raise AccordError(f"judge reports read one file; got {len(inputs)}")
    from accord.models_vs_humans._judge_file import judge_audit_file

    positions = o["positions"]
    if isinstance(positions, str):
        positions = tuple(x.strip() for x in positions.split(","))
    cols = [c.strip() for c in o["coders"].split(",")] if o["coders"] else None
    # the options given, under judge_audit's names; those not given take judge_audit's defaults, as accord judge
    audit = {name: o[key] for key, name in (("bootstrap", "n_boot"), ("confidence", "confidence_level"),
                                            ("mcnemar", "mcnemar"), ("pass_rate_interval", "pass_rate_interval"))
             if o[key] is not None}
    return judge_audit_file(inputs[0], judges=o["judges"], position=o["position"], run=o["run"],
                            verdict_refers_to=o["verdict_refers_to"], positions=positions, positive=o["positive"],
                            importer=importer, unit=o["unit"], coder=o["coder"], value=o["value"],
                            layout=o["layout"], coders=cols, sep=o["table_sep"], say=say,
                            distance=o["distance"] or "auto", epsilon=o["epsilon"], alpha=o["alpha"],
                            min_items=o["min_items"], power_tuned=o["power_tuned"], rng=o["seed"], **audit)


def _load_coref(inputs: list[Path], o: dict[str, Any], said: list[Any]) -> tuple[Any, dict[str, Any]]:
    """The coders' coreference chains (on the key's tokens, with a key) and the page's options; the warnings of
    the reading added to *said*."""
    from accord._shared.caught import caught_warnings
    from accord.coref._readers import read_coref

    names = [c.strip() for c in o["coders"].split(",")] if o["coders"] else None
    data, more = caught_warnings(read_coref, inputs, format=o["fmt"], coders=names,
                                 missing_mentions=o["missing_mentions"], align=o["align"])
    said += more
    key = None
    if o["key"] is not None:
        key, more = caught_warnings(read_coref, [o["key"]], format=o["fmt"])
        said += more
    if key is not None:  # the coders' mentions on the key's tokens (checked, or aligned by the words)
        from accord.coref._tokens import placed_on

        data, more = caught_warnings(placed_on, key, data, align=o["align"])
        said += more
    return data, {"key": key, "set_distance": o["distance"] or "set-relation"}


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
        raise AccordError(f"{exc} (the default output, named after {named}); pass output= to write elsewhere",
                          cli=f"{exc.for_cli()} (the default output, named after {named}); pass -o PATH to write "
                          "elsewhere") from None
    if (out.exists() or out.is_symlink()) and not force:
        raise AccordError(f"{out} exists (the default output, named after {named}): pass force=True to replace it, "
                          "or output= to write elsewhere",
                          cli=f"{out} exists (the default output, named after {named}): pass --force to replace it, "
                          "or -o PATH to write elsewhere")
    return out


def _from_export(inputs: list[Path], kind: str, tool: str | None) -> bool:
    """Whether the input is read by an annotation tool's importer: with a tool named, or, with kind auto or
    agree, a file that is not a plain table (JSON, JSON lines or a zip a tool wrote, or a table with a tool's
    own header), or, with kind spans, an input that is not the span table (as accord spans reads it)."""
    if len(inputs) != 1 or kind not in ("auto", "agree", "spans", "models"):
        return False
    if tool is not None:
        return True
    if kind == "spans":
        from accord.spans._readers import is_span_table

        return not is_span_table(inputs[0])
    return inputs[0].is_file() and (kind in ("agree", "models") or detect_kind(inputs) == "agree")
